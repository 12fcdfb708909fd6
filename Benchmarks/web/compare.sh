#!/usr/bin/env bash
# No timing: two builds of agro-full must answer the same pages and API calls with the same
# status, content type and body, on the Swiss register and on the bundled catalog.
#
#   Benchmarks/web/compare.sh OLD NEW [--catalog FILE]
#
# OLD and NEW are agro-full binaries (keep them inside the repository, e.g. .build-old/, so both
# find the same Assets/ and Localizable/ through AGRO_HOME). The paths: the uses pages of the 50
# pest and culture pairs with the most uses (German), 12 of them in five more languages, sorts,
# pages, stages, groups, a pest or a culture alone, unknown and hostile values; 40 product cards;
# the uses, products and search API; the other pages of the menu. Each is asked twice (the second
# answer may come from the caches). Prints every path that differs and how many did; exits 1 if
# any did. Imports the register into $AGRO_BENCH_DIR/ch.sqlite once, as pages.sh does.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [--catalog FILE]" >&2; exit 64; }
old="$1" new="$2"
shift 2
export AGRO_BIN="$new" AGRO_HOME="${AGRO_HOME:-$PWD}"
source Benchmarks/web/common.sh

servers=()
trap 'kill "${servers[@]}" 2>/dev/null; wait 2>/dev/null' EXIT
# start BINARY CATALOG: a server on a free loopback port, which it leaves in $port.
start() {
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$1" --catalog "$2" web --host 127.0.0.1 --port "$port" \
    --requests-per-client 100000 --connections-per-client 1024 >/dev/null 2>&1 &
  servers+=($!)
  for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port/api/v1/catalog" >/dev/null 2>&1 && break; sleep 0.2; done
}

differ=0
for source in "$catalog" Database/catalog.sqlite; do
  start "$old" "$source"
  a="$port"
  start "$new" "$source"
  b="$port"
  python3 - "$a" "$b" "$source" <<'PY' || differ=1
import sqlite3, sys, urllib.error, urllib.parse, urllib.request
a, b, source = sys.argv[1:4]
q = lambda text: urllib.parse.quote(text, safe="")
db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
products = [r[0] for r in db.execute(
    "SELECT product_id FROM uses GROUP BY product_id ORDER BY COUNT(*) DESC, product_id LIMIT 40")]
pairs = list(db.execute(
    "SELECT up.pest_id, uc.culture_id FROM use_pests up JOIN use_cultures uc ON uc.use_id = up.use_id "
    "GROUP BY 1, 2 ORDER BY COUNT(*) DESC, 1, 2 LIMIT 50"))
paths = []
for pest, culture in pairs:
    pair = f"pest={q(pest)}&culture={q(culture)}"
    paths += [f"/uses?{pair}&lang=de", f"/api/v1/uses?{pair}&lang=de", f"/api/v1/products?{pair}&lang=de"]
for pest, culture in pairs[:12]:
    pair = f"pest={q(pest)}&culture={q(culture)}"
    paths += [f"/uses?{pair}&lang={lang}" for lang in ("en", "ru", "kk", "fr", "it")]
    paths += [f"/uses?{pair}&lang=de&{extra}" for extra in (
        "page=2", "page=3", "page=99", "sort=dose", "sort=phi", "sort=dose&page=2", "stage=30", "stage=75",
        "all=1", "perPage=7", "perPage=7&page=2", "group=FRAC%203", "stage=x", "sort=nope")]
    paths += [f"/uses?pest={q(pest)}&lang=ru", f"/uses?culture={q(culture)}&lang=kk", f"/uses?{pair}"]
paths += [f"/product/{q(p)}?lang={lang}" for p in products for lang in ("de", "ru")]
paths += [
    "/uses", "/uses?lang=en", "/uses?pest=nope&lang=de", "/uses?culture=nope", "/uses?pest=%3Cb%3E%22x&culture=%27",
    "/", "/products?lang=de", "/products?lang=kk", "/cultures?lang=de", "/regions", "/news", "/plan?lang=ru",
    "/tank?lang=kk", "/favorites", "/search?q=kartoffel&lang=de", "/api/v1/search?q=kartoffel&lang=de",
    "/api/v1/cultures?lang=it", "/api/v1/pests?lang=de", "/api/v1/products?pest=nope&lang=de", "/product/nope",
    "/?lang=xx",
]
def get(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()
differ = 0
for round in range(2):
    for path in paths:
        if get(a, path) != get(b, path):
            differ += 1
            print(f"differs: {path}")
print(f"{source}: {2 * len(paths)} requests, {differ} answered differently")
sys.exit(1 if differ else 0)
PY
  kill "${servers[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  servers=()
done
exit $differ
