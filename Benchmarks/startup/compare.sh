#!/usr/bin/env bash
# Whether two builds of `agro` answer the quick query commands alike, byte for byte:
# a change to how the program is linked or laid out must not change a single answer.
#
#   Benchmarks/startup/compare.sh OLD NEW [--catalog FILE]
#
# Runs the query commands QuickCommandLine reads (products, search, the lists, the cards, uses)
# in json, table and csv, in English, Russian and Kazakh, with each program, and compares
# standard output, standard error and the exit status. Keep both programs inside the
# repository (Benchmarks/.build/release, say): agro finds Localizable/ above its own folder.
set -euo pipefail
cd "$(dirname "$0")/../.."

[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [--catalog FILE]" >&2; exit 64; }
old="$1" new="$2" catalog=Database/catalog.sqlite
shift 2
[ "${1:-}" = --catalog ] && catalog="$2"
scratch="$(mktemp -d /tmp/agro-compare.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
export HOME="$scratch" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"

lines=(
  "products --pest zymoseptoria-tritici --culture winter-wheat --per-page 20"
  "products --culture winter-wheat --all"
  "products --letters"
  "products --letter a --category fungicide"
  "search ржавч --per-page 20"
  "search wheat --kind culture"
  "pests --culture winter-wheat"
  "cultures --all"
  "substances --page 2 --per-page 5"
  "regions"
  "product azoxystrobin-cyproconazole-280-sc"
  "product azoxystrobin-cyproconazole-280-sc --alternatives"
  "pest zymoseptoria-tritici --culture winter-wheat"
  "culture winter-wheat"
  "substance azoxystrobin"
  "uses --pest zymoseptoria-tritici --culture winter-wheat"
  "uses --culture winter-wheat --sort date"
  "product no-such-product"
  "products --pest no-such-pest"
)
runs=0 differ=0
for format in json table csv; do
  for lang in en ru kk; do
    for line in "${lines[@]}"; do
      runs=$((runs + 1))
      for side in old new; do
        program="$old"
        [ "$side" = new ] && program="$new"
        status=0
        # shellcheck disable=SC2086
        "$program" --catalog "$catalog" --lang "$lang" --format "$format" $line \
          >"$scratch/$side.out" 2>"$scratch/$side.err" || status=$?
        echo "$status" >>"$scratch/$side.out"
      done
      if ! cmp -s "$scratch/old.out" "$scratch/new.out" || ! cmp -s "$scratch/old.err" "$scratch/new.err"; then
        differ=$((differ + 1))
        echo "differs: --lang $lang --format $format $line" >&2
      fi
    done
  done
done
echo "$runs command lines, $differ answered differently"
[ "$differ" -eq 0 ]
