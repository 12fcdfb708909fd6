#!/usr/bin/env bash
# Builds and runs the libFuzzer target for the HTML renderer.
#   Fuzz/run.sh [seconds]        (default 60)
# The AgroHTML sources and the entry point are compiled into one module with
# -sanitize=fuzzer,address; CLibXML2 is found through its module map, libxml2 through pkg-config.
# Crashes are written to Fuzz/artifacts/; the corpus grows in Fuzz/work-corpus/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
mkdir -p .build/fuzz Fuzz/artifacts Fuzz/work-corpus
cp -n Fuzz/corpus/* Fuzz/work-corpus/ 2>/dev/null || true
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name AgroHTMLFuzz \
    -I Sources/CLibXML2 $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') \
    Sources/AgroHTML/*.swift Fuzz/RenderHTMLFuzz/*.swift \
    $(pkg-config --libs libxml-2.0) -o .build/fuzz/render-html-fuzz
.build/fuzz/render-html-fuzz -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix=Fuzz/artifacts/ Fuzz/work-corpus Fuzz/corpus
