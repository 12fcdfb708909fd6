#!/usr/bin/env bash
# The field pages of `agro web` on the Swiss register: latency of the product card
# and of the uses page (a pest on a culture) with the answer cache off, and the bytes of each
# page as sent and gzip-compressed.
#
#   Benchmarks/web/pages.sh [--duration SECONDS] [--connections N] [--catalog FILE]
#
# wrk (Debian, installed when missing) keeps N connections (default 32) busy for each page,
# cycling through many different pages (the 200 products with the most uses; the 50 pest and
# culture pairs with the most uses), so no answer is repeated back to back. The goal is a p99
# of at most 20 ms for the uses page at 32 connections; the script prints the ratio. Builds
# agro-full in release (AGRO_BENCH_SCRATCH: a build folder of its own); imports the register
# from ../shared/data/srppp/ into $AGRO_BENCH_DIR/ch.sqlite once (shared with run.sh).
# Nothing is written into the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."

source Benchmarks/web/common.sh
uses_path="${AGRO_USES_PATH:-/uses}"  # the uses page's route

# The pages: products with the most uses, pest/culture pairs with the most uses (ids from SQL).
sqlite3 -readonly "$catalog" "SELECT product_id FROM uses GROUP BY product_id ORDER BY COUNT(*) DESC, product_id LIMIT 200" >"$work/products.txt"
sqlite3 -readonly -separator ' ' "$catalog" "
  SELECT up.pest_id, uc.culture_id FROM use_pests up JOIN use_cultures uc ON uc.use_id = up.use_id
  GROUP BY 1, 2 ORDER BY COUNT(*) DESC, 1, 2 LIMIT 50" >"$work/pairs.txt"
lang=de
python3 - "$work" "$uses_path" "$lang" <<'PY'
import sys, urllib.parse
work, uses, lang = sys.argv[1:4]
q = lambda text: urllib.parse.quote(text, safe="")
products = [f"/product/{q(line.strip())}?lang={lang}" for line in open(f"{work}/products.txt") if line.strip()]
pairs = [line.split() for line in open(f"{work}/pairs.txt") if line.strip()]
usesPaths = [f"{uses}?pest={q(p)}&culture={q(c)}&lang={lang}" for p, c in pairs]
for name, paths in (("card", products), ("uses", usesPaths)):
    with open(f"{work}/{name}.paths", "w") as out:
        out.write("\n".join(paths) + "\n")
    # A wrk script: each of its threads cycles through the paths from a random start.
    with open(f"{work}/{name}.lua", "w") as out:
        out.write("local paths = {}\nfor line in io.lines('%s/%s.paths') do paths[#paths + 1] = line end\n" % (work, name))
        out.write("local i = math.random(#paths)\nrequest = function()\n  i = i % #paths + 1\n"
                  "  return wrk.format('GET', paths[i])\nend\n")
PY

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# wrk is one client address standing for many phones: the per-client caps are lifted, or most
# answers at 32 connections would be 429 refusals, timed as if they were pages.
"$agro" --catalog "$catalog" web --host 127.0.0.1 --port "$port" --cache-mb 0 \
  --requests-per-client 1024 --connections-per-client 1024 >"$work/pages.out" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/api/v1/catalog" >/dev/null 2>&1 && break; sleep 0.2; done
base="http://127.0.0.1:$port"

# Every page answers 200 with HTML before anything is timed; bytes as sent and gzipped.
python3 - "$base" "$work" <<'PY'
import gzip, statistics, sys, urllib.request
base, work = sys.argv[1:3]
for name in ("card", "uses"):
    plain, packed, sent = [], [], []
    for path in open(f"{work}/{name}.paths").read().split():
        request = urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=60) as response:
            body = response.read()
            if response.status != 200 or "text/html" not in response.headers.get("Content-Type", ""):
                sys.exit(f"{path}: {response.status} {response.headers.get('Content-Type')}")
            encoded = response.headers.get("Content-Encoding") == "gzip"
        sent.append(len(body))
        html = gzip.decompress(body) if encoded else body
        plain.append(len(html))
        packed.append(len(gzip.compress(html, 6)))
    print(f"{name}: {len(plain)} pages; bytes median {statistics.median(plain):.0f} uncompressed, "
          f"{statistics.median(packed):.0f} gzip -6 ({statistics.median(plain) / statistics.median(packed):.1f}x smaller), "
          f"{statistics.median(sent):.0f} as sent to a client accepting gzip; largest {max(plain)} / {max(packed)}")
PY

run() { # prints "requests/s p50_ms p99_ms non2xx" for the paths of $1
  wrk -t2 -c"$connections" -d"$duration"s --latency -s "$work/$1.lua" "$base" >"$work/wrk-$1.txt"
  wrk_summary "$work/wrk-$1.txt"
}
wrk -t1 -c4 -d2s -s "$work/card.lua" "$base" >/dev/null
wrk -t1 -c4 -d2s -s "$work/uses.lua" "$base" >/dev/null
echo "wrk: $connections connections, ${duration}s each, on $(nproc) cores (load $(cut -d' ' -f1 /proc/loadavg)); catalog $(basename "$catalog"); --cache-mb 0; lang=$lang"
printf '%-14s %8s %8s %8s %8s\n' page "req/s" "p50 ms" "p99 ms" "non-2xx"
read -r c_rps c_p50 c_p99 c_err < <(run card)
printf '%-14s %8s %8s %8s %8s\n' "product card" "$c_rps" "$c_p50" "$c_p99" "$c_err"
read -r u_rps u_p50 u_p99 u_err < <(run uses)
printf '%-14s %8s %8s %8s %8s\n' "uses page" "$u_rps" "$u_p50" "$u_p99" "$u_err"
python3 -c "import sys; p = float(sys.argv[1]); print(f'uses page p99 {p:.2f} ms against the 20 ms goal: {p / 20:.2f}x the goal ({\"met\" if p <= 20 else \"not met\"})')" "$u_p99"
