#!/usr/bin/env bash
# Catalog-core benchmarks (issue 2): builds agro and agro-bench in release, then runs
# `agro-bench run` against the release agro. Extra arguments go to `agro-bench run`
# (e.g. --iterations 1000, --catalog FILE, --show-sql). See Benchmarks/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

# One product per invocation: given several --product options, `swift build` builds only the last.
swift build -c release --product agro
swift build -c release --product agro-bench

exec .build/release/agro-bench run --agro .build/release/agro "$@"
