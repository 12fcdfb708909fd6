#!/usr/bin/env bash
# Import benchmark for the Swiss register, kept out of the tests.
#
# For each published file: wall time and peak memory (/usr/bin/time -v) of the import, as a
# ratio to `xmllint --stream --noout` on the same uncompressed XML (target: at most 5x);
# then search and filter query times on the imported catalog.
#
# Also: the insert floor (insert-floor.c: the same rows inserted by a minimal C loop, then the
# indexes and `VACUUM INTO`), and, with BASELINE=path/to/an/older/agro-import-bench, that build
# timed in the same run. Wall and CPU time (user + system) with the load average: the machine
# is shared.
#
# Reads the files from $AGRO_SHARED/data/srppp (default ../shared, next to the repository); the
# uncompressed XML and the catalogs go to a temporary directory, never into the repository.
#
#   [BASELINE=OLD-BENCH] Benchmarks/import/run.sh [DATA_DIR]
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
data="${1:-${AGRO_SHARED:-$root/../shared}/data/srppp}"
work="$(mktemp -d -t agro-import-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT

cd "$root"
# xmllint (the baseline) and GNU time (peak memory), installed when missing.
command -v xmllint >/dev/null && [ -x /usr/bin/time ] || scripts/install-deps libxml2-utils time
# The benchmark programs are a package of their own (Benchmarks/Package.swift).
swift build --package-path Benchmarks -c release --product agro-import-bench >/dev/null
bench="$(swift build --package-path Benchmarks -c release --show-bin-path)/agro-import-bench"
cc -O2 -o "$work/insert-floor" Benchmarks/import/insert-floor.c -lsqlite3

# Peak resident set size in MB and elapsed seconds from /usr/bin/time -v output.
peak_mb() { awk -F: '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"; }
cpu() { awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$1"; }
elapsed() {
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.3f", s }' "$1"
}

for file in "$data"/Daten_Pflanzenschutzmittelverzeichnis_2024-12-16.zip "$data"/PublicationData_2026_02_03.xml.xz; do
    name="$(basename "$file")"
    echo "== $name"
    xml="$work/${name%%.*}.xml"
    case "$file" in
        *.zip) unzip -p "$file" '*.xml' >"$xml" ;;
        *.xz) xz -dc "$file" >"$xml" ;;
    esac
    echo "uncompressed XML: $(($(stat -c %s "$xml") / 1024 / 1024)) MB"

    echo "load: $(uptime | sed 's/.*load average: //')"
    /usr/bin/time -v xmllint --stream --noout "$xml" 2>"$work/xmllint.time"
    base="$(elapsed "$work/xmllint.time")"
    basecpu="$(cpu "$work/xmllint.time")"
    echo "xmllint --stream --noout: ${base} s, CPU ${basecpu} s, peak $(peak_mb "$work/xmllint.time") MB"

    for input in "$file" "$xml"; do
        label="$( [ "$input" = "$file" ] && echo "as published" || echo "plain XML")"
        for program in ${BASELINE:+"$BASELINE"} "$bench"; do
            /usr/bin/time -v "$program" import "$input" "$work/catalog.sqlite" >"$work/import.out" 2>"$work/import.time"
            took="$(elapsed "$work/import.time")"
            used="$(cpu "$work/import.time")"
            who="$( [ "$program" = "$bench" ] && echo "import" || echo "baseline import")"
            echo "$who ($label): ${took} s, CPU ${used} s, peak $(peak_mb "$work/import.time") MB," \
                "ratio to xmllint $(awk -v a="$took" -v b="$base" 'BEGIN { printf "%.1f", a / b }')x" \
                "(CPU $(awk -v a="$used" -v b="$basecpu" 'BEGIN { printf "%.1f", a / b }')x)"
        done
    done
    sed -n '1,20p' "$work/import.out"
    "$work/insert-floor" "$work/catalog.sqlite" "$work/floor.sqlite"
    ls -l "$work/catalog.sqlite" | awk '{ printf "catalog size: %.1f MB\n", $5 / 1048576 }'
    "$bench" query "$work/catalog.sqlite"
    rm -f "$xml"
    echo
done
