# Shared by the web benchmarks (run.sh, pages.sh, hostile.sh), sourced from the package root with the
# script's arguments: the options (--duration S, --connections N, --catalog FILE), the work
# folder $AGRO_BENCH_DIR (default /tmp/agro-web-bench), wrk, agro-full built in release
# (AGRO_BENCH_SCRATCH: a build folder of its own, swift build --scratch-path, to keep it apart
# from the debug build the tests use) and the Swiss register imported once into
# $AGRO_BENCH_DIR/ch.sqlite. Nothing is written into the repository.
duration=15 connections=32 catalog=""
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --catalog) catalog="$2"; shift 2 ;;
    *) echo "usage: $0 [--duration S] [--connections N] [--catalog FILE]" >&2; exit 64 ;;
  esac
done
work="${AGRO_BENCH_DIR:-/tmp/agro-web-bench}"
mkdir -p "$work"
register="${AGRO_REGISTER:-../shared/data/srppp/PublicationData_2026_02_03.xml.xz}"

command -v wrk >/dev/null || scripts/install-deps wrk
# Without AGRO_BENCH_SCRATCH, agro-full is built in the benchmarks package as Benchmarks/run.sh
# builds agro (same flags, so the scripts share one release build of the libraries).
# AGRO_BIN: an agro-full release binary to use instead of building one (with AGRO_HOME
# pointing at its Assets/ and Localizable/ when they are not beside it).
if [ -n "${AGRO_BIN:-}" ]; then
  agro="$AGRO_BIN"
else
  if [ -n "${AGRO_BENCH_SCRATCH:-}" ]; then
    build=(-c release --scratch-path "$AGRO_BENCH_SCRATCH" -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
  else
    build=(--package-path Benchmarks -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
  fi
  swift build "${build[@]}" --product agro-full
  agro="$(swift build "${build[@]}" --show-bin-path)/agro-full"
  # Outside the repository the program would not find Assets/web beside it.
  [ -z "${AGRO_BENCH_SCRATCH:-}" ] || export AGRO_HOME="${AGRO_HOME:-$PWD}"
fi
if [ -z "$catalog" ]; then
  catalog="$work/ch.sqlite"
  [ -f "$catalog" ] || "$agro" catalog import srppp "$register" --out "$catalog"
fi

# wrk_summary FILE: "requests/s p50_ms p99_ms non-2xx" from the output of wrk --latency.
wrk_summary() {
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(label):
    m = re.search(r"^\s*" + label + r"\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
print(f"{rps:.0f} {ms('50%'):.2f} {ms('99%'):.2f} {errors.group(1) if errors else 0}")
PY
}
