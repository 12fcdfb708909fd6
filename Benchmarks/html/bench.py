"""Times agro's renderer, w3m -dump and html2text over the same pages; prints MB/s and ratios.

Three views, because the tools differ in process cost:
- in-process: agro renders all pages REPEATS times in one process; html2text likewise in one
  Python process (w3m has no library form, so it has no in-process figure);
- per-file process: one process per page and tool, as a user would run them (startup included);
- one big document: all pages concatenated five times, one process per tool.
"""
import glob, os, subprocess, sys, time

binary, pages_dir, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
# Debian's python3-html2text lives in the system Python, which a pyenv shim may hide.
py = os.environ.get("PYTHON_FOR_HTML2TEXT", "/usr/bin/python3")
pages = sorted(glob.glob(os.path.join(pages_dir, "*.html")))
if not pages:
    sys.exit(f"no pages in {pages_dir}")
size = sum(os.path.getsize(p) for p in pages)
mb = size / 1e6
print(f"{len(pages)} pages, {mb:.2f} MB per round, {repeats} rounds")

def rate(seconds, rounds):
    return mb * rounds / seconds

# agro, in-process; best of three runs, since the machine is shared and timings wander
def agro_once():
    out = subprocess.run([binary, "--repeat", str(repeats), "--width", "80", *pages], check=True,
                         capture_output=True, text=True).stdout
    return float(out.split("seconds=")[1].split()[0])
agro_in = rate(min(agro_once() for _ in range(3)), repeats)

# html2text, in-process (decode as the pages declare or UTF-8, replacing errors)
code = f"""
import html2text, sys, time
pages = [open(p, 'rb').read().decode('utf-8', 'replace') for p in sys.argv[1:]]
t = time.perf_counter()
for _ in range({max(1, repeats // 5)}):
    for page in pages:
        h = html2text.HTML2Text(); h.body_width = 80; h.handle(page)
print(time.perf_counter() - t)
"""
h2t_rounds = max(1, repeats // 5)
h2t_in = rate(min(float(subprocess.run([py, "-c", code, *pages], check=True, capture_output=True,
                                       text=True).stdout) for _ in range(2)), h2t_rounds)

def per_process(cmd, rounds):
    t = time.perf_counter()
    for _ in range(rounds):
        for p in pages:
            with open(p, "rb") as f:
                subprocess.run(cmd(p), stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return rate(time.perf_counter() - t, rounds)

proc_rounds = max(1, repeats // 10)
agro_proc = per_process(lambda p: [binary, "80"], proc_rounds)
w3m_proc = per_process(lambda p: ["w3m", "-dump", "-cols", "80", "-T", "text/html", p], proc_rounds)
h2t_proc = per_process(lambda p: [py, "-m", "html2text", "--body-width=80", "--decode-errors=replace", p], proc_rounds)

# One large document (the pages, five times): startup no longer dominates, so this is the
# fair per-byte comparison with w3m, which cannot be timed in-process.
import tempfile
# Only the UTF-8 pages: one page in a legacy charset would make the whole file non-UTF-8.
def is_utf8(path):
    try:
        open(path, "rb").read().decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False
utf8_pages = [p for p in pages if is_utf8(p)]
big_mb = 5 * sum(os.path.getsize(p) for p in utf8_pages) / 1e6
big = tempfile.NamedTemporaryFile(suffix=".html", delete=False)
for _ in range(5):
    for p in utf8_pages:
        big.write(open(p, "rb").read())
big.close()
def one_big(cmd, stdin=False):
    best = None
    for _ in range(2):
        t = time.perf_counter()
        with open(big.name, "rb") as f:
            subprocess.run(cmd, stdin=f if stdin else subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
        elapsed = time.perf_counter() - t
        best = elapsed if best is None else min(best, elapsed)
    return big_mb / best
agro_big = one_big([binary, "80"], stdin=True)
w3m_big = one_big(["w3m", "-dump", "-cols", "80", "-T", "text/html", big.name])
h2t_big = one_big([py, "-m", "html2text", "--body-width=80", "--decode-errors=replace", big.name])
os.unlink(big.name)

print(f"in-process   agro {agro_in:8.1f} MB/s   html2text {h2t_in:6.2f} MB/s   agro/html2text {agro_in / h2t_in:6.1f}x")
print(f"per process  agro {agro_proc:8.1f} MB/s   w3m {w3m_proc:6.2f} MB/s   html2text {h2t_proc:6.2f} MB/s")
print(f"             agro/w3m {agro_proc / w3m_proc:6.1f}x   agro/html2text {agro_proc / h2t_proc:6.1f}x")
print(f"one big doc  agro {agro_big:8.1f} MB/s   w3m {w3m_big:6.2f} MB/s   html2text {h2t_big:6.2f} MB/s")
print(f"             agro/w3m {agro_big / w3m_big:6.1f}x   agro/html2text {agro_big / h2t_big:6.1f}x")
print(f"target 50 MB/s (in-process): {'met' if agro_in >= 50 else 'NOT met'}")

# libxml2's HTML parser alone bounds the renderer: time it the same way for reference.
cc = os.environ.get("CC", "cc")
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libxml2_sax_parse.c")
exe = os.path.join(os.path.dirname(binary), "libxml2-sax-parse")
flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libxml-2.0"], capture_output=True, text=True).stdout.split()
if subprocess.run([cc, "-O2", src, "-o", exe, *flags]).returncode == 0:
    sax = min(float(subprocess.run([exe, str(repeats), *pages], check=True, capture_output=True, text=True).stdout)
              for _ in range(3))
    print(f"libxml2 SAX parse only (C, no-op callbacks): {rate(sax, repeats):.1f} MB/s")
