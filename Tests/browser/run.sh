#!/usr/bin/env bash
# The browser test of `agro web`: headless Chromium (Debian's `chromium`, installed here when
# missing) searches as one types, opens a product card and keeps a favorite; the DOM is
# checked at each step (Tests/browser/browser_test.py) and a screenshot is written to
# ${AGRO_SCREENSHOT:-/tmp/agro-web-browser.png} (never into the repository).
# Needs a built agro-full (swift build). Exits non-zero when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v chromium >/dev/null || scripts/install-deps chromium
binary="$(swift build --show-bin-path)/agro-full"
[ -x "$binary" ] || swift build --product agro-full

home="$(mktemp -d)"
out="$home/web.out"
XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
  "$binary" --catalog Database/catalog.sqlite web --host 127.0.0.1 --port 0 >"$out" 2>"$home/web.log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$home"' EXIT
for _ in $(seq 1 300); do
  grep -q "Listening on" "$out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$home/web.log" >&2; exit 1; }
  sleep 0.1
done
url="$(grep -o 'http://[^ ]*' "$out" | head -n 1)"
[ -n "$url" ] || { echo "agro web did not start" >&2; exit 1; }
python3 Tests/browser/browser_test.py "$url" "${AGRO_SCREENSHOT:-/tmp/agro-web-browser.png}"
