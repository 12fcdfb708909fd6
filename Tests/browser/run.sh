#!/usr/bin/env bash
# The browser test of `agro web`: headless Chromium (Debian's `chromium`, installed here when
# missing) crawls the site, opens every kind of page in en/ru/kk at 360 px with axe-core
# (fetched from PyPI by the test), searches as one types, keeps a favorite and reloads pages
# with the network off, writes field-journal records offline (`--journal`, the user database
# in this run's temporary folders), then as two phones and an inspector of one farm on a second
# `agro web --farm-journal` in folders of its own, saves for offline what a favorite needs,
# searches the saved pages, opens the Swiss register's longest card (imported here from the
# shared data) and measures first visits on a slow link (Tests/browser/browser_test.py). Screenshots go to
# ${AGRO_SCREENSHOTS:-/tmp/agro-web-browser} (never into the repository). The weather pages
# read recorded OpenWeatherMap answers from the shared fixtures through a loopback stand-in
# (Tests/browser/owm_server.py); without the fixtures they are left out, and with CI=true that fails.
# Needs a built agro-full and agro (swift build). Exits non-zero when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v chromium >/dev/null || scripts/install-deps chromium
python3 -m pip --version >/dev/null 2>&1 || scripts/install-deps python3-pip
bin="$(swift build --show-bin-path)"
[ -x "$bin/agro-full" ] || swift build --product agro-full
[ -x "$bin/agro" ] || swift build --product agro

home="$(mktemp -d)"
out="$home/web.out"
pids=()
# A helper stopped here exits 143 (SIGTERM); under set -e that status must not become the test's.
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$home"' EXIT

# The shared inputs: $AGRO_SHARED, else shared/ beside the package root (as SharedFixtures finds them).
owm="${AGRO_OWM_FIXTURES:-${AGRO_SHARED:-../shared}/fixtures/owm}"
weather=()
if [ -f "$owm/forecast_5day_3h_london_full_list_rain.json" ]; then
  python3 Tests/browser/owm_server.py "$owm" >"$home/owm.out" &
  pids+=($!)
  for _ in $(seq 1 100); do grep -q "^port" "$home/owm.out" 2>/dev/null && break; sleep 0.1; done
  weather=(AGRO_OPENWEATHER_URL="http://127.0.0.1:$(awk '/^port/ {print $2}' "$home/owm.out")" OPENWEATHER_API_KEY=browser-test AGRO_BROWSER_WEATHER=1)
elif [ "${CI:-}" = true ]; then
  echo "browser test: the OpenWeatherMap fixtures are missing (looked in $owm)" >&2
  exit 1
else
  echo "browser test: no OpenWeatherMap fixtures in $owm; the weather at a point is left out" >&2
fi

env "${weather[@]}" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
  "$bin/agro-full" --catalog Database/catalog.sqlite web --host 127.0.0.1 --port 0 --journal >"$out" 2>"$home/web.log" &
server=$!
pids+=($server)
for _ in $(seq 1 300); do
  grep -q "Listening on" "$out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$home/web.log" >&2; exit 1; }
  sleep 0.1
done
url="$(grep -o 'http://[^ ]*' "$out" | head -n 1)"
[ -n "$url" ] || { echo "agro web did not start" >&2; exit 1; }

# A farm's shared journal (`--farm-journal`) in folders of its own: a farm and three accounts
# made with the CLI (two agronomists, an inspector), quick bcrypt for the test.
farm=(XDG_DATA_HOME="$home/farm/data" XDG_CONFIG_HOME="$home/farm/config" XDG_CACHE_HOME="$home/farm/cache" AGRO_BCRYPT_COST=4)
env "${farm[@]}" "$bin/agro-full" farms add "Kamenka" >/dev/null
accounts=""
for account in anna:agronomist boris:agronomist ivan:inspector; do
  login="${account%%:*}" role="${account##*:}" password="pw-${account%%:*}-$RANDOM$RANDOM"
  env "${farm[@]}" AGRO_PASSWORD="$password" "$bin/agro-full" users add "$login" --farm Kamenka --role "$role" >/dev/null
  accounts="$accounts$login:$password:$role "
done
env "${farm[@]}" "$bin/agro-full" --catalog Database/catalog.sqlite web --host 127.0.0.1 --port 0 --farm-journal \
  >"$home/farm.out" 2>"$home/farm.log" &
farm_server=$!
pids+=($farm_server)
for _ in $(seq 1 300); do
  grep -q "Listening on" "$home/farm.out" 2>/dev/null && break
  kill -0 "$farm_server" 2>/dev/null || { cat "$home/farm.log" >&2; exit 1; }
  sleep 0.1
done
farm_url="$(grep -o 'http://[^ ]*' "$home/farm.out" | head -n 1)"
[ -n "$farm_url" ] || { echo "agro web --farm-journal did not start" >&2; exit 1; }

# The Swiss register, imported from the shared data when it is there, for a card of 85 uses.
register="${AGRO_SHARED:-../shared}/data/srppp/PublicationData_2026_02_03.xml.xz"
swiss=()
if [ -f "$register" ]; then
  "$bin/agro-full" catalog import srppp "$register" --out "$home/ch.sqlite" >"$home/import.log" 2>&1 \
    || { cat "$home/import.log" >&2; exit 1; }
  XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
    "$bin/agro-full" --catalog "$home/ch.sqlite" web --host 127.0.0.1 --port 0 >"$home/ch.out" 2>"$home/ch.log" &
  pids+=($!)
  for _ in $(seq 1 300); do grep -q "Listening on" "$home/ch.out" 2>/dev/null && break; sleep 0.1; done
  swiss=(AGRO_SWISS_URL="$(grep -o 'http://[^ ]*' "$home/ch.out" | head -n 1)" AGRO_SWISS_CATALOG="$home/ch.sqlite")
elif [ "${CI:-}" = true ]; then
  echo "browser test: the Swiss register is missing ($register)" >&2
  exit 1
else
  echo "browser test: no Swiss register at $register; the long card is left out" >&2
fi
env "${weather[@]}" "${swiss[@]}" AGRO_CLI="$bin/agro" AGRO_CATALOG="$PWD/Database/catalog.sqlite" \
  AGRO_FARM_URL="$farm_url" AGRO_FARM_NAME=Kamenka AGRO_FARM_ACCOUNTS="$accounts" \
  python3 Tests/browser/browser_test.py "$url" "${AGRO_SCREENSHOTS:-/tmp/agro-web-browser}"
