#!/usr/bin/env bash
# Peak memory of agro against hostile answers (the target: under 100 MB for any of them).
#   Benchmarks/hostile/run.sh
# A small Python server on 127.0.0.1 answers with a gzip bomb (1 GiB of spaces in ~1 MB), a
# Content-Length of 9223372036854775807, an endless body and one byte every 0.2 s; agro-full
# fetches each as a feed (`news refresh`), as a manifest (`db check`) and as a weather answer.
# Peak resident memory comes from GNU time (%M); the reference is the same binary listing the
# cached news without any fetch, measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product agro-full >&2
bin="$PWD/.build/debug/agro-full"
scratch="$(mktemp -d /tmp/agro-hostile.XXXXXX)"
port_file="$scratch/port"
python3 - "$port_file" <<'PY' &
import http.server, socketserver, sys, time, zlib
bomb = zlib.compressobj(9, zlib.DEFLATED, 31)
chunk = b" " * (1 << 20)
body = b"".join(bomb.compress(chunk) for _ in range(1024)) + bomb.flush()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_GET(self):
        path = self.path.split("?")[0]
        try:
            if path.endswith("/bomb") or path.startswith("/bomb"):
                self.send_response(200); self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            elif path.startswith("/huge"):
                self.send_response(200); self.send_header("Content-Length", "9223372036854775807"); self.end_headers()
                self.wfile.write(b"{}")
            elif path.startswith("/endless"):
                self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                while True: self.wfile.write(chunk)
            elif path.startswith("/slow"):
                self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                while True: self.wfile.write(b" "); self.wfile.flush(); time.sleep(0.2)
            else:
                self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers()
        except (BrokenPipeError, ConnectionResetError):
            pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    def handle_error(self, request, client_address): pass  # clients hang up on purpose
server = Server(("127.0.0.1", 0), Handler)
open(sys.argv[1], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
server_pid=$!
trap 'kill $server_pid 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 100); do [ -s "$port_file" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$port_file")"
export HOME="$scratch" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"
mkdir -p "$XDG_CONFIG_HOME/agro"
"$bin" keys generate --out "$scratch/k" > /dev/null
export AGRO_TRUST="$scratch/k.pub" OPENWEATHER_API_KEY=bench AGRO_UPDATE_DEADLINE=5

peak() {  # label, command...: prints "label  peak-MB  status  seconds"
  local label="$1"; shift
  local start end status
  start=$(date +%s.%N)
  set +e
  /usr/bin/time -f "%M" -o "$scratch/rss" "$@" > /dev/null 2> "$scratch/err"
  status=$?
  set -e
  end=$(date +%s.%N)
  printf '%-34s %8.1f MB  status %3d  %5.1f s  %s\n' "$label" "$(($(tail -1 "$scratch/rss"))).0e-3" "$status" \
    "$(echo "$end - $start" | bc)" "$(head -c 90 "$scratch/err" | tr '\n' ' ')"
}
echo '{"feeds":[]}' > "$XDG_CONFIG_HOME/agro/feeds.json"
peak "reference: news (no fetch)" "$bin" news
for kind in bomb huge endless slow; do
  echo "{\"feeds\":[\"$base/$kind/feed.xml\"]}" > "$XDG_CONFIG_HOME/agro/feeds.json"
  peak "news refresh: $kind" "$bin" news refresh
  peak "db check: $kind" "$bin" db check --server "$base/$kind/"
  AGRO_OPENWEATHER_URL="$base/$kind" peak "weather: $kind" "$bin" weather --at 47.5,8.5
done
