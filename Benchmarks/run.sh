#!/usr/bin/env bash
# Catalog-core benchmarks: builds agro and agro-bench in release, then runs
# `agro-bench run` against the release agro. Extra arguments go to `agro-bench run`
# (e.g. --iterations 1000, --catalog FILE, --show-sql). See Benchmarks/README.md.
# `--single` first: also builds agro-full the same way and times it, as the single-executable
# variant, interleaved with agro (the measurement behind the agro/agro-full split).
set -euo pipefail
cd "$(dirname "$0")/.."

# One product per invocation: given several --product options, `swift build` builds only the last.
# The Swift runtime and Foundation are linked statically: that is how a release would ship, and
# it takes a third off every start-up. agro-floor is built the same way, for the floor. agro
# answers the benchmarked queries itself, so agro-full is built only for --single.
# Linked as a position-dependent executable too: a position-independent one has ~90,000
# relocations for the loader to apply at every start, about 0.4 ms.
# Generic metadata made by direct calls: the flag Package.swift explains, for the whole build.
# Everything is built in the benchmarks package (Benchmarks/Package.swift, into Benchmarks/.build),
# agro and agro-full too: that package depends on agro's, so one release build of GRDB and the
# libraries serves the programs and the benchmarks alike.
flags=(--package-path Benchmarks -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
bin=Benchmarks/.build/release
products=(agro agro-floor agro-library-floor agro-bench)
single=()
if [[ "${1:-}" == "--single" ]]; then
  shift
  products+=(agro-full)
  single=(--single "$bin/agro-full")
fi
for product in "${products[@]}"; do
  swift build "${flags[@]}" --product "$product"
done

exec "$bin/agro-bench" run --agro "$bin/agro" --floor "$bin/agro-floor" \
  --library-floor "$bin/agro-library-floor" "${single[@]}" "$@"
