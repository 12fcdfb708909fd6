#!/usr/bin/env bash
# Throughput and latency of `agro web` against Datasette on the same SQLite catalog (the
# imported Swiss register), side by side in one run: wrk with 32 connections on
#   /api/v1/products?pest=ID&culture=ID   vs Datasette's canned query "products" (same SQL shape)
#   /api/v1/search?q=WORD                  vs Datasette's canned query "search" (same FTS5 query)
# Both answer the first page of 20 in German with names, the total count and (products) the
# ingredients; the script checks that both return the same ids before timing them.
#
#   Benchmarks/web/run.sh [--duration SECONDS] [--connections N] [--catalog FILE]
#
# Installs wrk (Debian) and Datasette (PyPI, into a venv under $AGRO_BENCH_DIR, default
# /tmp/agro-web-bench) when missing; builds agro-full in release; imports the register from
# ../shared/data/srppp/ into $AGRO_BENCH_DIR/ch.sqlite once. Nothing is written into the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."

source Benchmarks/web/common.sh
python3 -m venv --help >/dev/null 2>&1 || scripts/install-deps python3-venv
if [ ! -x "$work/venv/bin/datasette" ]; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install -q datasette
fi

# The (pest, culture) pair with the most products, and a word found in many names.
read -r pest culture < <(sqlite3 -readonly -separator ' ' "$catalog" "
  SELECT up.pest_id, uc.culture_id FROM use_pests up JOIN uses u ON u.id = up.use_id
  JOIN use_cultures uc ON uc.use_id = u.id GROUP BY 1, 2 ORDER BY COUNT(DISTINCT u.product_id) DESC, 1, 2 LIMIT 1")
word="${AGRO_BENCH_WORD:-kartoffel}"
lang=de

# Datasette serves the file immutable (no locking, its fastest mode) with two canned queries
# written as the store writes them (SQLiteCatalog+Products.swift, +Search.swift).
name() { # the localized name of entity $1 owned by column $2, falling back along de -> en
  echo "COALESCE((SELECT name FROM $1_i18n WHERE $1_id = $2 AND locale = 'de'), (SELECT name FROM $1_i18n WHERE $1_id = $2 AND locale = 'en'))"
}
products_sql="SELECT id, name, category, registration_number, ingredients, COUNT(*) OVER () AS total FROM (
  SELECT p.id, p.category, p.registration_number, $(name product p.id) AS name,
    COALESCE((SELECT name_key FROM product_i18n WHERE product_id = p.id AND locale = 'de'), (SELECT name_key FROM product_i18n WHERE product_id = p.id AND locale = 'en')) AS name_key,
    (SELECT group_concat(pi.substance_id || ' ' || COALESCE(pi.concentration, '') || ' ' || COALESCE(pi.unit, ''), ' + ')
       FROM product_ingredients pi WHERE pi.product_id = p.id) AS ingredients
  FROM products p
  WHERE p.id IN (SELECT u.product_id FROM use_pests up JOIN uses u ON u.id = up.use_id
                 WHERE up.pest_id = :pest AND u.id IN (SELECT uc.use_id FROM culture_ancestors ca
                   JOIN use_cultures uc ON uc.culture_id = ca.ancestor_id WHERE ca.culture_id = :culture)))
  ORDER BY name_key, id LIMIT 20"
search_sql="WITH scored AS MATERIALIZED (
    SELECT kind, entity_id, bm25(search_index, 0, 0, 0, 10.0, 1.0) AS score FROM search_index WHERE search_index MATCH :q),
  ranked AS (SELECT kind, entity_id, MIN(score) AS rank FROM scored GROUP BY kind, entity_id)
  SELECT kind, entity_id AS id, rank, COUNT(*) OVER () AS total,
    CASE kind WHEN 'product' THEN $(name product entity_id) WHEN 'pest' THEN $(name pest entity_id)
      WHEN 'culture' THEN $(name culture entity_id) WHEN 'substance' THEN $(name substance entity_id) END AS name
  FROM ranked ORDER BY rank, kind, entity_id LIMIT 20"
python3 - "$work/metadata.json" "$products_sql" "$search_sql" <<'PY'
import json, sys
path, products, search = sys.argv[1:4]
json.dump({"databases": {"ch": {"queries": {"products": {"sql": products}, "search": {"sql": search}}}}}, open(path, "w"))
PY
ln -sf "$(realpath "$catalog")" "$work/ch.db" 2>/dev/null || true
[ "$(realpath "$catalog")" = "$(realpath "$work/ch.db")" ] || cp "$catalog" "$work/ch.db"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
agro_port="$(free_port)" uncached_port="$(free_port)" datasette_port="$(free_port)"
# wrk is one client address standing for many phones: the per-client caps are lifted (as in
# pages.sh), or most answers at 32 connections would be 429 refusals timed as if they were answers.
lifted="--requests-per-client 1024 --connections-per-client 1024"
"$agro" --catalog "$catalog" web --host 127.0.0.1 --port "$agro_port" $lifted >"$work/agro.out" 2>/dev/null &
agro_pid=$!
# The same server without its answer cache: every request runs its SQL, as Datasette's do.
"$agro" --catalog "$catalog" web --host 127.0.0.1 --port "$uncached_port" $lifted --cache-mb 0 >"$work/agro-uncached.out" 2>/dev/null &
uncached_pid=$!
"$work/venv/bin/datasette" serve -i "$work/ch.db" --metadata "$work/metadata.json" --host 127.0.0.1 \
  --port "$datasette_port" --setting sql_time_limit_ms 5000 >"$work/datasette.log" 2>&1 &
datasette_pid=$!
trap 'kill $agro_pid $uncached_pid $datasette_pid 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 1 300); do
  curl -sf "http://127.0.0.1:$agro_port/api/v1/catalog" >/dev/null 2>&1 &&
    curl -sf "http://127.0.0.1:$uncached_port/api/v1/catalog" >/dev/null 2>&1 &&
    curl -sf "http://127.0.0.1:$datasette_port/ch.json" >/dev/null 2>&1 && break
  sleep 0.2
done

match="\"$word\"*"
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
agro_products="http://127.0.0.1:$agro_port/api/v1/products?pest=$(enc "$pest")&culture=$(enc "$culture")&lang=$lang&perPage=20"
agro_search="http://127.0.0.1:$agro_port/api/v1/search?q=$(enc "$word")&lang=$lang&perPage=20"
ds_products="http://127.0.0.1:$datasette_port/ch/products.json?pest=$(enc "$pest")&culture=$(enc "$culture")&_shape=array"
ds_search="http://127.0.0.1:$datasette_port/ch/search.json?q=$(enc "$match")&_shape=array"

# The same answers: ids in the same order, and the same total.
python3 - "$agro_products" "$ds_products" "$agro_search" "$ds_search" <<'PY'
import json, sys, urllib.request
get = lambda url: json.load(urllib.request.urlopen(url, timeout=30))
for api, ds in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    a, d = get(api), get(ds)
    ids_a, ids_d = [i["id"] for i in a["items"]], [r["id"] for r in d]
    total_d = d[0]["total"] if d else 0
    if ids_a != ids_d or a["total"] != total_d:
        sys.exit(f"answers differ:\n  {api}: {a['total']} {ids_a}\n  {ds}: {total_d} {ids_d}")
    print(f"same answer ({a['total']} in all, {len(ids_a)} on the page): {api.split('?')[0].rsplit('/', 1)[-1]}")
PY

run() { # prints "requests/s p50_ms p99_ms" for URL $1
  wrk -t2 -c"$connections" -d"$duration"s --latency "$1" >"$work/wrk.txt"
  wrk_summary "$work/wrk.txt"
}
uncached() { echo "${1/:$agro_port\//:$uncached_port/}"; }
for url in "$agro_products" "$ds_products" "$agro_search" "$ds_search" "$(uncached "$agro_products")" "$(uncached "$agro_search")"; do
  wrk -t1 -c4 -d2s "$url" >/dev/null
done
echo "wrk: $connections connections, ${duration}s each, on $(nproc) cores; catalog $(basename "$catalog") ($(du -h "$catalog" | cut -f1)); pest=$pest culture=$culture q=$word lang=$lang"
printf '%-9s %-10s %10s %9s %9s %7s\n' query server "req/s" "p50 ms" "p99 ms" "non-2xx"
for query in products search; do
  if [ "$query" = products ]; then a="$agro_products" d="$ds_products"; else a="$agro_search" d="$ds_search"; fi
  read -r a_rps a_p50 a_p99 a_err < <(run "$a")
  read -r u_rps u_p50 u_p99 u_err < <(run "$(uncached "$a")")
  read -r d_rps d_p50 d_p99 d_err < <(run "$d")
  printf '%-9s %-10s %10s %9s %9s %7s\n' "$query" "agro web" "$a_rps" "$a_p50" "$a_p99" "$a_err"
  printf '%-9s %-10s %10s %9s %9s %7s\n' "$query" "(uncached)" "$u_rps" "$u_p50" "$u_p99" "$u_err"
  printf '%-9s %-10s %10s %9s %9s %7s\n' "$query" datasette "$d_rps" "$d_p50" "$d_p99" "$d_err"
  python3 -c "import sys; a, u, d, p, q = map(float, sys.argv[1:6]); print(f'{sys.argv[6]}: throughput vs datasette {a / d:.2f}x, uncached {u / d:.2f}x (goal >= 3x); p99 {p:.2f} ms, uncached {q:.2f} ms (goal: uncached products <= 20 ms)')" \
    "$a_rps" "$u_rps" "$d_rps" "$a_p99" "$u_p99" "$query"
done
