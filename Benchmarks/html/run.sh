#!/usr/bin/env bash
# HTML renderer throughput against `w3m -dump` and Python's html2text on the real pages in
# the shared fixtures. Not part of the tests.
#   Benchmarks/html/run.sh [REPEATS]      (default 20)
# Needs w3m and python3-html2text (Debian packages; installed when missing and root).
set -euo pipefail
cd "$(dirname "$0")/../.."
repeats="${1:-20}"
pages_dir="${AGRO_BENCH_PAGES:-../shared/fixtures/html/real_pages}"
if ! command -v w3m >/dev/null || ! /usr/bin/python3 -c 'import html2text' 2>/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq w3m python3-html2text >/dev/null
    else
        echo "install w3m and python3-html2text first" >&2
        exit 1
    fi
fi
# The benchmark programs are a package of their own (Benchmarks/Package.swift).
swift build --package-path Benchmarks -c release --product agro-html-bench 2>&1 | tail -1
python3 Benchmarks/html/bench.py Benchmarks/.build/release/agro-html-bench "$pages_dir" "$repeats"
