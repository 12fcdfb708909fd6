#!/usr/bin/env bash
# CLI fuzz run: every command of agro with random and boundary arguments for a bounded time.
#   Fuzz/cli/run.sh [seconds] [seed]        (default 120 s, seed from the clock)
# A crash is an exit status >= 128 (a signal: trap, abort, segfault) or "Fatal error" / a stack
# trace on stderr; a hang is a command still running after 20 s (killed, status 124). Each
# finding is kept in Fuzz/cli/findings/ (not committed) with its arguments; the summary line
# gives runs, crashes, hangs and the exit statuses seen. Exits 1 when anything was found.
#
# Everything runs in a scratch HOME/XDG tree with the bundled catalog; the update server, the
# weather service and the feeds point at a closed port of 127.0.0.1: nothing leaves the machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-120}"
seed="${2:-$(date +%s)}"
RANDOM=$((seed % 32768))

swift build --product agro-full >&2
swift build --product agro >&2
bin="$PWD/.build/debug"
scratch="$(mktemp -d /tmp/agro-cli-fuzz.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
findings="Fuzz/cli/findings"
mkdir -p "$findings" "$scratch/home" "$scratch/config/agro" "$scratch/data" "$scratch/cache" "$scratch/files"
echo '{"feeds":["http://127.0.0.1:9/feed.xml"]}' > "$scratch/config/agro/feeds.json"
printf '<p>\xe2\x80\xae txt.exe <b>x</b></p>' > "$scratch/files/page.html"
head -c 4096 /dev/urandom > "$scratch/files/random.bin"
: > "$scratch/files/empty"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"
export AGRO_UPDATE_SERVER="http://127.0.0.1:9/" AGRO_OPENWEATHER_URL="http://127.0.0.1:9" OPENWEATHER_API_KEY="fuzz"
export AGRO_UPDATE_DEADLINE=3 NO_COLOR=1 LANG=C.UTF-8
"$bin/agro-full" keys generate --out "$scratch/files/release" > /dev/null
export AGRO_TRUST="$scratch/files/release.pub"

commands=(
  "products" "product" "substances" "substance" "cultures" "culture" "pests" "pest" "scheme" "search"
  "contacts" "regions" "favorites add" "favorites remove" "favorites list"
  "weather" "news" "news show" "news refresh" "news feeds list" "news feeds add" "news feeds remove"
  "render-html" "catalog info" "catalog schema" "catalog build" "catalog import srppp" "catalog publish"
  "db status" "db check" "db update" "db rollback" "db verify" "keys generate" "serve"
)

# Options each command accepts, from its own help.
declare -A options
for command in "${commands[@]}"; do
  # shellcheck disable=SC2086
  options[$command]="$("$bin/agro-full" $command --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u | grep -v -- '--help' | tr '\n' ' ' || true)"
done

binary() { head -c $((RANDOM % 64 + 1)) /dev/urandom | tr -d '\000' ; }
values=(
  "" " " "0" "-1" "1" "-0" "00" "2147483648" "-2147483649" "9223372036854775807" "9223372036854775808"
  "-9223372036854775808" "99999999999999999999999999" "1e308" "-1e308" "1e-320" "nan" "inf" "-inf" "0x10"
  "١٢٣" "٤٢" "²" "½" "1,5" "1.5.5" "47.5,8.5" "91,181" "-90,-180" "1e300,1e300" "nan,nan"
  "$(printf '\u202Eevil\u202C')" "$(printf 'a\u200Bb\u2066c')" "שלום" "مرحبا" "Пшеница" "пшениця" "ß" "İ"
  "%s%n%x" "\\" "\"" "'" "../../../../etc/passwd" "/dev/null" "/" "-" "--" "-x" "a=b" "{}" "[]"
  "http://127.0.0.1:9/" "https://[::1]:0/" "ftp://x" "file:///etc/passwd" "javascript:alert(1)"
  "$scratch/files/page.html" "$scratch/files/random.bin" "$scratch/files/empty" "$scratch/files"
  "ru" "kk" "en" "xx" "json" "csv" "table" "fungicide" "herbicide" "W-1234" "*" "%" "_"
)
pick_value() {
  case $((RANDOM % 10)) in
    0) binary ;;
    1) head -c $((RANDOM % 20000 + 1000)) /dev/zero | tr '\0' 'A' ;;
    2) echo "$(( (RANDOM - 16384) * RANDOM * RANDOM ))" ;;
    *) printf '%s' "${values[RANDOM % ${#values[@]}]}" ;;
  esac
}

runs=0 crashes=0 hangs=0
declare -A statuses
end=$((SECONDS + seconds))
while [ $SECONDS -lt $end ]; do
  command="${commands[RANDOM % ${#commands[@]}]}"
  read -r -a words <<< "$command"
  args=("${words[@]}")
  read -r -a opts <<< "${options[$command]}"
  for _ in $(seq $((RANDOM % 4))); do
    if [ ${#opts[@]} -gt 0 ] && [ $((RANDOM % 2)) -eq 0 ]; then
      option="${opts[RANDOM % ${#opts[@]}]}"
      if [ $((RANDOM % 3)) -eq 0 ]; then args+=("$option"); else args+=("$option=$(pick_value)"); fi
    else
      args+=("$(pick_value)")
    fi
  done
  program="$bin/agro"; [ $((RANDOM % 2)) -eq 0 ] && program="$bin/agro-full"
  set +e
  limit=20; [ "${args[0]}" = "serve" ] && limit=2
  (cd "$scratch/files" && timeout -s KILL "$limit" "$program" "${args[@]}" < /dev/null > "$scratch/out" 2> "$scratch/err")
  status=$?
  set -e
  runs=$((runs + 1))
  statuses[$status]=$(( ${statuses[$status]:-0} + 1 ))
  if [ $status -eq 137 ] && [ ${#args[@]} -gt 0 ] && [ "${args[0]}" = "serve" ]; then
    continue  # serve runs until stopped: being killed is its normal end here
  fi
  crashed=0
  if [ $status -eq 137 ]; then hangs=$((hangs + 1)); crashed=1
  elif [ $status -ge 128 ] || grep -qE 'Fatal error|Stack dump|stack trace|Illegal instruction|Segmentation fault' "$scratch/err"; then
    crashes=$((crashes + 1)); crashed=1
  fi
  if [ $crashed -eq 1 ]; then
    file="$findings/$(date +%s)-$runs"
    { printf 'status %s\nprogram %s\n' "$status" "$program"; printf 'arg: %q\n' "${args[@]}"; echo '--- stderr'; head -c 4000 "$scratch/err"; } > "$file"
    echo "finding: $file" >&2
  fi
done
summary=""
for status in $(printf '%s\n' "${!statuses[@]}" | sort -n); do summary+=" $status:${statuses[$status]}"; done
echo "cli fuzz: seed $seed, $seconds s, $runs runs, $crashes crashes, $hangs hangs; exit statuses (status:count):$summary"
[ $crashes -eq 0 ] && [ $hangs -eq 0 ]
