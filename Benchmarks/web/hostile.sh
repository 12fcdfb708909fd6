#!/usr/bin/env bash
# `agro web` under hostile load on the imported Swiss register, in one run:
#
#   1. the most expensive page alone: /products?all=true&lang=de (every product of the
#      register, rendered), 1 connection: its p50/p99 is the budget it is held to;
#   2. mixed load: 64 connections asking for that page without pause while 4 others ask for
#      cheap answers (a static file, /healthz, a cached API answer): the cheap requests' p99
#      against their p99 on an idle server (the reference, same run);
#   3. key flood: 20,000 requests with distinct 3.5 KB query strings on a cached endpoint
#      (8 kept-alive connections): peak resident memory (VmHWM) against the resident memory
#      after start-up (the reference, same run), with the default --cache-mb 64.
#
#   Benchmarks/web/hostile.sh [--duration SECONDS] [--catalog FILE]
#
# Needs wrk (Debian; installed when missing) and python3. Builds agro-full in release
# (AGRO_BENCH_SCRATCH: a build folder of its own) and imports the register from
# ../shared/data/srppp/ into $AGRO_BENCH_DIR (default /tmp/agro-web-bench) once, as run.sh.
# Nothing is written into the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."

source Benchmarks/web/common.sh

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# wrk is one client address standing for many: the per-client caps are lifted (as in pages.sh), so
# that the heavy connections reach the work pool and its own limits, which this script measures.
lifted="--requests-per-client 1024 --connections-per-client 1024"
"$agro" --catalog "$catalog" web --host 127.0.0.1 --port "$port" $lifted >"$work/hostile.out" 2>/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
base="http://127.0.0.1:$port"
rss() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$pid/status"; }  # kB
heavy="$base/products?all=true&lang=de"
curl -sf "$base/api/v1/products?perPage=20&lang=de" >/dev/null  # cached from now on

latency() { # wrk output file -> "p50_ms p99_ms requests non2xx"
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(label):
    m = re.search(r"^\s*" + label + r"\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    if not m: return float("nan")
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
count = re.search(r"(\d+) requests in", text)
print(f"{ms('50%'):.2f} {ms('99%'):.2f} {count.group(1) if count else 0} {errors.group(1) if errors else 0}")
PY
}
# wrk with one of several cheap targets per request.
cat >"$work/cheap.lua" <<'LUA'
local paths = {"/static/app.css", "/healthz", "/api/v1/products?perPage=20&lang=de"}
local i = 0
request = function() i = i + 1; return wrk.format("GET", paths[(i % #paths) + 1]) end
LUA

echo "catalog $(basename "$catalog") ($(du -h "$catalog" | cut -f1)); $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg); ${duration}s per run"
started_kb=$(rss VmRSS)

wrk -t1 -c1 -d"$duration"s --latency "$heavy" >"$work/heavy-alone.txt"
read -r h50 h99 hcount _ < <(latency "$work/heavy-alone.txt")
echo "1. most expensive page alone ($heavy, $(curl -s "$heavy" | wc -c) bytes): p50 ${h50} ms, p99 ${h99} ms ($hcount requests)"

wrk -t1 -c4 -d"$duration"s --latency -s "$work/cheap.lua" "$base" >"$work/cheap-idle.txt"
read -r i50 i99 icount _ < <(latency "$work/cheap-idle.txt")
wrk -t2 -c64 -d"$((duration + 4))"s --timeout 30s --latency "$heavy" >"$work/heavy-load.txt" &
load_pid=$!
sleep 2
wrk -t1 -c4 -d"$duration"s --latency -s "$work/cheap.lua" "$base" >"$work/cheap-loaded.txt"
wait $load_pid
read -r l50 l99 lcount _ < <(latency "$work/cheap-loaded.txt")
read -r x50 x99 xcount xerr < <(latency "$work/heavy-load.txt")
echo "2. cheap requests idle: p50 ${i50} ms, p99 ${i99} ms ($icount); under 64 heavy connections: p50 ${l50} ms, p99 ${l99} ms ($lcount)"
echo "   heavy under load: p50 ${x50} ms, p99 ${x99} ms, $xcount answered, $xerr refused (503 busy)"
python3 -c "import sys; a, b = map(float, sys.argv[1:]); print(f'   cheap p99 under load / idle: {b / a:.1f}x (reference measured before the limits: a static file delayed 6-7 s)')" "$i99" "$l99"

before_kb=$(rss VmRSS)
python3 - "$port" <<'PY'
import socket, sys, threading
port, pad = int(sys.argv[1]), "x" * 3500
def worker(n):
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    for i in range(2500):
        s.sendall(f"GET /api/v1/regions?k{n}x{i}={pad} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        length = 0
        while True:
            line = f.readline()
            if line in (b"\r\n", b""): break
            if line.lower().startswith(b"content-length:"): length = int(line.split(b":")[1])
        f.read(length)
threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
for t in threads: t.start()
for t in threads: t.join()
PY
peak_kb=$(rss VmHWM) after_kb=$(rss VmRSS)
echo "3. key flood (20,000 distinct 3.5 KB queries): resident at start $((started_kb / 1024)) MB, before the flood $((before_kb / 1024)) MB, after $((after_kb / 1024)) MB, peak $((peak_kb / 1024)) MB"
python3 -c "import sys; a, b = map(int, sys.argv[1:]); print(f'   peak / start: {b / a:.2f}x (reference measured before the limits: 92 MB -> 1.64 GB after 20,000 keys of 80 KB, 17.8x)')" "$started_kb" "$peak_kb"
