#!/usr/bin/env bash
# Where the start-up of a catalog query goes. Profiles the release `agro` answering
# `--format json products --pest --culture` on the bundled catalog, beside `sqlite3` running one
# query on the same file:
#   - perf stat: CPU time (task-clock, which load from other processes barely changes), wall
#     time, page faults, context switches (RUNS runs each, default 50);
#   - strace -c: the system calls of one run;
#   - LD_DEBUG=statistics: the dynamic loader's relocations and time;
#   - perf record over RUNS runs: where the CPU time goes, by library and by function;
#   - callgrind: instructions of one run of each, which load from other processes does not change
#     (on a copy without debug information: valgrind cannot read the Swift binary's).
#
#   Benchmarks/startup/profile.sh [--agro PATH] [--runs N]
#
# Without --agro it builds agro as Benchmarks/run.sh does (release, static Swift runtime,
# -no-pie). Installs linux-perf and strace when missing. HOME and the XDG folders point into a
# fresh temporary folder, so no user configuration applies.
set -euo pipefail
cd "$(dirname "$0")/../.."

agro="" runs=50
while [ $# -gt 0 ]; do
  case "$1" in
    --agro) agro="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "usage: $0 [--agro PATH] [--runs N]" >&2; exit 64 ;;
  esac
done
command -v perf >/dev/null && command -v strace >/dev/null && command -v valgrind >/dev/null ||
  scripts/install-deps linux-perf strace valgrind
if [ -z "$agro" ]; then
  swift build --package-path Benchmarks -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors --product agro >&2
  agro=Benchmarks/.build/release/agro
fi
catalog=Database/catalog.sqlite
scratch="$(mktemp -d /tmp/agro-startup.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
export HOME="$scratch" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"
query=("$agro" --catalog "$catalog" --lang ru --format json products --pest zymoseptoria-tritici --culture winter-wheat --per-page 20)
# The products query's first statement, for sqlite3's start, open and schema read.
reference=(/usr/bin/sqlite3 -readonly "$catalog" "SELECT COUNT(*) FROM uses u JOIN use_pests up ON up.use_id = u.id WHERE up.pest_id = 'zymoseptoria-tritici'")
"${query[@]}" >/dev/null

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for label in agro sqlite3; do
  if [ "$label" = agro ]; then command=("${query[@]}"); else command=("${reference[@]}"); fi
  echo "== perf stat, $label ($runs runs)"
  perf stat -r "$runs" -e task-clock,page-faults,context-switches -- "${command[@]}" 2>&1 >/dev/null |
    grep -E "task-clock|page-faults|context-switches|elapsed"
done

echo "== strace -c, agro (one run)"
strace -c -o "$scratch/strace.txt" "${query[@]}" >/dev/null
head -25 "$scratch/strace.txt"

echo "== LD_DEBUG=statistics, agro"
LD_DEBUG=statistics LD_DEBUG_OUTPUT="$scratch/ld" "${query[@]}" >/dev/null
cat "$scratch"/ld.* | sed 's/^ *[0-9]*: *//' | grep -E "relocation|time needed|objects"

echo "== callgrind: instructions of one run"
cp "$agro" "$scratch/agro" && strip --strip-debug "$scratch/agro"
stripped=("$scratch/agro" "${query[@]:1}")
for label in agro sqlite3; do
  if [ "$label" = agro ]; then command=("${stripped[@]}"); else command=("${reference[@]}"); fi
  valgrind --tool=callgrind --callgrind-out-file="$scratch/callgrind.$label" "${command[@]}" 2>&1 >/dev/null |
    grep -o "refs: .*" | sed "s/^/$label /"
done
echo "== callgrind, agro: instructions by function, inclusive (top 25)"
callgrind_annotate --inclusive=yes "$scratch/callgrind.agro" 2>/dev/null | grep -E "^ *[0-9]" | head -25 | cut -c1-150 || true

echo "== perf record, agro ($runs runs): CPU time by library"
perf record -q -F 20000 -g -o "$scratch/perf.data" -- \
  bash -c 'for _ in $(seq "$0"); do "$@" >/dev/null; done' "$runs" "${query[@]}" 2>/dev/null
perf report -i "$scratch/perf.data" --comm "$(basename "$agro" | cut -c1-15)" --no-children --sort dso --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -12
echo "== by function (top 30)"
perf report -i "$scratch/perf.data" --comm "$(basename "$agro" | cut -c1-15)" --no-children --sort dso,symbol --stdio -g none 2>/dev/null |
  grep -E "^ +[0-9]" | head -30 | cut -c1-150

