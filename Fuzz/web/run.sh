#!/usr/bin/env bash
# Fuzzes the JSON API of `agro web` from its own OpenAPI document with schemathesis (PyPI, in a
# venv under ${AGRO_FUZZ_DIR:-/tmp/agro-fuzz}), on loopback: the server runs on the demo catalog
# with OpenWeatherMap answered by the recorded answers of ../shared/fixtures/owm
# (Tests/browser/owm_server.py), and every generated request must get an answer that is not a
# server error (5xx other than the documented 503 of a missing weather key, which the stand-in
# avoids) and that matches the document. Then the weather client is fed mutated upstream answers
# (Fuzz/web/mutate_weather.py): every number, time and offset of a recorded answer set to
# extremes, and the server must answer each request and stay up.
#
#   Fuzz/web/run.sh [EXAMPLES_PER_OPERATION] [SEED]
#
# Needs a built agro-full (swift build). Exits non-zero on a failure; nothing is written into the
# repository.
set -euo pipefail
cd "$(dirname "$0")/../.."
examples="${1:-100}"
seed="${2:-1}"
venv="${AGRO_FUZZ_DIR:-/tmp/agro-fuzz}/venv"
[ -x "$venv/bin/schemathesis" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q schemathesis; }
bin="$(swift build --show-bin-path)"
[ -x "$bin/agro-full" ] || swift build --product agro-full
owm="${AGRO_SHARED:-../shared}/fixtures/owm"

home="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$home"' EXIT
python3 Tests/browser/owm_server.py "$owm" >"$home/owm.out" &
pids+=($!)
for _ in $(seq 1 100); do grep -q "^port" "$home/owm.out" 2>/dev/null && break; sleep 0.1; done
upstream="http://127.0.0.1:$(awk '/^port/ {print $2}' "$home/owm.out")"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
AGRO_HOME="$PWD" XDG_DATA_HOME="$home" XDG_CACHE_HOME="$home" XDG_CONFIG_HOME="$home" \
  AGRO_OPENWEATHER_URL="$upstream" OPENWEATHER_API_KEY=fuzz \
  "$bin/agro-full" web --host 127.0.0.1 --port "$port" --requests-per-client 64 --weather-per-client 100000 \
  --weather-total 100000 --weather-per-client-daily 1000000 --weather-daily 1000000 >"$home/web.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done

"$venv/bin/schemathesis" run "http://127.0.0.1:$port/api/v1/openapi.json" -n "$examples" --seed "$seed" \
  --request-timeout 10 --checks not_a_server_error,response_schema_conformance,content_type_conformance
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "fuzz: the server is gone" >&2; exit 1; }
python3 Fuzz/web/mutate_weather.py "$bin/agro-full" "$owm"
