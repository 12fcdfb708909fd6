#!/usr/bin/env python3
"""CPU time (and wall time) of the whole-process catalog queries, against sqlite3 running the same SQL.

Benchmarks/run.sh times wall clock, which on a shared machine is mostly waiting for a core. This
times the CPU each process used (user + system, from wait4's rusage), which load from other
processes barely changes, for the two queries agro-bench measures on the bundled catalog:
each agro given with --agro (several: compare builds in the same run), sqlite3 running the SQL
agro's store runs (read from `agro-bench run --show-sql`), and the library floor with that SQL.
Runs are interleaved, RUNS of each; the table gives medians and ratios to sqlite3.

    Benchmarks/startup/cpu-ratios.py --agro Benchmarks/.build/release/agro [--agro OTHER] [--runs 60]

Uses the programs Benchmarks/run.sh builds (agro-bench, agro-library-floor in Benchmarks/.build/release).
"""
import argparse, os, statistics, subprocess, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("--agro", action="append", required=True)
parser.add_argument("--runs", type=int, default=60)
parser.add_argument("--catalog", default="Database/catalog.sqlite")
options = parser.parse_args()
release = "Benchmarks/.build/release"
scratch = tempfile.mkdtemp(prefix="agro-cpu.")
environment = dict(os.environ, HOME=scratch, XDG_CONFIG_HOME=scratch + "/config",
                   XDG_DATA_HOME=scratch + "/data", XDG_CACHE_HOME=scratch + "/cache")

# The SQL of each query, as agro-bench traces it from the store.
shown = subprocess.run(
    [f"{release}/agro-bench", "run", "--agro", options.agro[0], "--catalog", options.catalog,
     "--iterations", "1", "--process-runs", "1", "--show-sql"],
    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment, check=True).stdout
sql, current = {}, None
for line in shown.splitlines():
    if line.startswith("-- ") and line.endswith("SQL given to sqlite3"):
        current = "search" if "search" in line else "products"
        sql[current] = []
    elif current and line.strip() == "":
        current = None
    elif current:
        sql[current].append(line)

queries = {
    "search": ["search", "ржавч"],
    "products": ["products", "--pest", "zymoseptoria-tritici", "--culture", "winter-wheat"],
}


def statements(script):
    out, current = [], ""
    for line in script:
        current += line + "\n"
        if line.rstrip().endswith(";"):
            out.append(current.strip())
            current = ""
    return out


def cpu(command):
    """CPU milliseconds (user + system) and wall milliseconds of one run of command, output to /dev/null."""
    with open(os.devnull, "w") as null:
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=null, stderr=null, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        wall = (time.monotonic() - start) * 1000
    assert status == 0, command
    return (usage.ru_utime + usage.ru_stime) * 1000, wall


with open("/proc/loadavg") as f:
    print(f"load average: {' '.join(f.read().split()[:3])}, {os.cpu_count()} cores; {options.runs} runs of each")
for query, words in queries.items():
    script = "\n".join(sql[query])
    global_options = ["--catalog", options.catalog, "--lang", "ru", "--format", "json"]
    commands = {"sqlite3": ["/usr/bin/sqlite3", "-readonly", options.catalog, script]}
    for agro in options.agro:
        commands[agro] = [agro] + global_options + words + ["--per-page", "20"]
    commands["library floor"] = ([f"{release}/agro-library-floor"] + global_options + words[1:]
                                 + ["--per-page", "20"] + [a for s in statements(sql[query]) for a in ("--sql", s)])
    times = {name: [] for name in commands}
    walls = {name: [] for name in commands}
    for name, command in commands.items():
        cpu(command)  # warm the page cache
    for _ in range(options.runs):
        for name, command in commands.items():
            used, wall = cpu(command)
            times[name].append(used)
            walls[name].append(wall)
    reference = statistics.median(times["sqlite3"])
    floor = statistics.median(times["library floor"])
    wall_reference = statistics.median(walls["sqlite3"])
    print(f"{query}:")
    for name, values in times.items():
        median = statistics.median(values)
        wall = statistics.median(walls[name])
        print(f"  {name:60} {median:7.2f} ms CPU  {median / reference:5.2f}x sqlite3  {median / floor:5.2f}x library floor"
              f"  | wall {wall:7.2f} ms  {wall / wall_reference:5.2f}x sqlite3")
