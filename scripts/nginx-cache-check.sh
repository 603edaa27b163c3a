#!/usr/bin/env bash
# A real shared cache in front of the catalog (issue 14): nginx (Debian's
# package) with proxy_cache on loopback. Shows that
#
#   1. each API version is served correctly from the cache: the listing's
#      responses carry `Vary: X-API-Version, Accept` (and `Prefer` first
#      when the request states a count preference), so a response stored for
#      `X-API-Version: 2` is never answered to a request without it (or with
#      another version), and a repeated request is a cache HIT of the right
#      version (nginx keeps one stored variant per combination of the Vary
#      headers' values);
#   2. revalidation works: once the stored response is stale, nginx asks the
#      catalog with `If-None-Match`, the catalog answers 304 and nginx serves
#      the stored body (REVALIDATED); a client's own `If-None-Match` with the
#      `ETag` gets a 304 from the cache.
#
# The catalog sends `Cache-Control: no-cache` (store, but revalidate before
# reuse); nginx does not store such responses, so the configuration ignores
# Cache-Control and stores 200s for a short time instead, which makes both
# fresh hits and revalidation observable.
#
# Usage: scripts/nginx-cache-check.sh   (as root on Debian: installs nginx
# when missing)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
out="${NGINX_CHECK_DIR:-$target/nginx-cache-check}"

log() { echo "nginx-cache-check: $*" >&2; }
fail() {
    log "FAILED: $*"
    [ -f "$out/nginx/error.log" ] && tail -n 20 "$out/nginx/error.log" >&2
    exit 1
}

if ! command -v nginx >/dev/null 2>&1; then
    log "installing nginx"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y --no-install-recommends nginx >&2
fi

log "building the catalog"
cargo build --quiet -p examples --bin catalog
bin="$target/debug/catalog"

rm -rf "$out"
mkdir -p "$out/nginx/cache"
chmod -R a+rwx "$out/nginx"

pids=()
cleanup() {
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
}
trap cleanup EXIT

CATALOG_ADDR=127.0.0.1:0 \
CATALOG_SEED_ROWS=50 \
CATALOG_WORKERS=1 \
CATALOG_ADMIN_TOKEN=nginx-check-admin \
CATALOG_EDITOR_TOKEN=nginx-check-editor \
CATALOG_ALLOWED_HOSTS=127.0.0.1 \
NODE_ENV=production \
RUST_LOG="${RUST_LOG:-warn,catalog=info,examples=info}" \
DATABASE_URL="" \
    "$bin" >"$out/catalog.stdout" 2>"$out/catalog.log" &
pids+=($!)

upstream=""
for _ in $(seq 1 300); do
    upstream="$(grep -o 'catalog listening on http://127\.0\.0\.1:[0-9]*' "$out/catalog.log" 2>/dev/null | head -n1 | sed 's|.*http://||' || true)"
    [ -n "$upstream" ] && break
    kill -0 "${pids[0]}" 2>/dev/null || { cat "$out/catalog.log" >&2; fail "the catalog exited early"; }
    sleep 0.1
done
[ -n "$upstream" ] || fail "the catalog did not start within 30 s"

# A free loopback port for nginx.
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
stale_after=5

cat >"$out/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log warn;
events { worker_connections 64; }
http {
    access_log $out/nginx/access.log;
    client_body_temp_path $out/nginx/client_body;
    proxy_temp_path $out/nginx/proxy;
    fastcgi_temp_path $out/nginx/fastcgi;
    uwsgi_temp_path $out/nginx/uwsgi;
    scgi_temp_path $out/nginx/scgi;
    proxy_cache_path $out/nginx/cache keys_zone=catalog:1m;
    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://$upstream;
            proxy_http_version 1.1;
            proxy_set_header Host 127.0.0.1;
            proxy_cache catalog;
            proxy_ignore_headers Cache-Control Expires;
            proxy_cache_valid 200 ${stale_after}s;
            proxy_cache_revalidate on;
            add_header X-Cache-Status \$upstream_cache_status always;
        }
    }
}
EOF
nginx -t -p "$out/nginx" -c "$out/nginx/nginx.conf" 2>"$out/nginx/config-test.log" \
    || { cat "$out/nginx/config-test.log" >&2; fail "nginx rejects its configuration"; }
nginx -p "$out/nginx" -c "$out/nginx/nginx.conf" &
pids+=($!)
ready=0
for _ in $(seq 1 100); do
    curl --silent --max-time 1 -o /dev/null "http://127.0.0.1:$port/health" && { ready=1; break; }
    sleep 0.1
done
[ "$ready" = 1 ] || fail "nginx did not answer /health within 10 s"
base="http://127.0.0.1:$port"
log "nginx on $base, catalog on http://$upstream"

# fetch NAME [curl args...]: the response of a GET through nginx, headers in
# $out/NAME.headers (lower-case names), body in $out/NAME.body.
fetch() {
    local name="$1"
    shift
    curl --silent --show-error --max-time 10 -D "$out/$name.headers" -o "$out/$name.body" "$@"
    tr -d '\r' <"$out/$name.headers" | sed 's/^\([^:]*\):/\L\1:/' >"$out/$name.h"
}
header() { grep -i "^$2: " "$out/$1.h" | head -n1 | cut -d' ' -f2- || true; }
status() { head -n1 "$out/$1.h" | cut -d' ' -f2; }
expect() { # NAME WHAT ACTUAL EXPECTED
    [ "$3" = "$4" ] || fail "$1: $2 is '$3', expected '$4'"
}

url="$base/books?per_page=1&fields=id"

# 1. Each version from the cache, never another version's response.
fetch v2-miss -H 'X-API-Version: 2' "$url"
expect v2-miss status "$(status v2-miss)" 200
expect v2-miss X-Cache-Status "$(header v2-miss x-cache-status)" MISS
expect v2-miss X-API-Version "$(header v2-miss x-api-version)" 2
expect v2-miss Vary "$(header v2-miss vary)" "X-API-Version, Accept"
expect v2-miss Deprecation "$(header v2-miss deprecation)" "@1767225600"
expect v2-miss body "$(cat "$out/v2-miss.body")" '[{"id":1}]'

fetch v2-hit -H 'X-API-Version: 2' "$url"
expect v2-hit X-Cache-Status "$(header v2-hit x-cache-status)" HIT
expect v2-hit X-API-Version "$(header v2-hit x-api-version)" 2
cmp -s "$out/v2-miss.body" "$out/v2-hit.body" || fail "v2-hit: the cached body differs"

fetch v3-default "$url"
expect v3-default status "$(status v3-default)" 200
expect v3-default X-Cache-Status "$(header v3-default x-cache-status)" MISS
expect v3-default X-API-Version "$(header v3-default x-api-version)" 3
expect v3-default Deprecation "$(header v3-default deprecation)" ""
expect v3-default body "$(cut -c1-19 "$out/v3-default.body")" '{"data":[{"id":1}],'

fetch v3-hit "$url"
expect v3-hit X-Cache-Status "$(header v3-hit x-cache-status)" HIT
expect v3-hit X-API-Version "$(header v3-hit x-api-version)" 3
cmp -s "$out/v3-default.body" "$out/v3-hit.body" || fail "v3-hit: the cached body differs"

fetch v2-accept -H 'Accept: application/vnd.catalog.v2+json' "$url"
expect v2-accept X-Cache-Status "$(header v2-accept x-cache-status)" MISS
expect v2-accept X-API-Version "$(header v2-accept x-api-version)" 2
expect v2-accept body "$(cat "$out/v2-accept.body")" '[{"id":1}]'

# nginx keeps one stored variant per Vary combination: the first
# version-2 response is still there, beside the version-3 one.
fetch v2-again -H 'X-API-Version: 2' "$url"
expect v2-again X-Cache-Status "$(header v2-again x-cache-status)" HIT
expect v2-again X-API-Version "$(header v2-again x-api-version)" 2
cmp -s "$out/v2-miss.body" "$out/v2-again.body" || fail "v2-again: the version-2 body differs"

# 2. 304s: the client's own If-None-Match against the cache, then nginx's
# revalidation against the catalog once the stored response is stale.
etag="$(header v2-again etag)"
[ -n "$etag" ] || fail "v2-again: no ETag"
fetch v2-304 -H 'X-API-Version: 2' -H "If-None-Match: $etag" "$url"
expect v2-304 status "$(status v2-304)" 304
expect v2-304 ETag "$(header v2-304 etag)" "$etag"
[ ! -s "$out/v2-304.body" ] || fail "v2-304: a 304 with a body"

sleep $((stale_after + 1))
fetch v2-revalidated -H 'X-API-Version: 2' "$url"
expect v2-revalidated status "$(status v2-revalidated)" 200
expect v2-revalidated X-Cache-Status "$(header v2-revalidated x-cache-status)" REVALIDATED
expect v2-revalidated X-API-Version "$(header v2-revalidated x-api-version)" 2
cmp -s "$out/v2-miss.body" "$out/v2-revalidated.body" || fail "v2-revalidated: the body differs"

# 3. A long query within the query limits: nginx reads the whole header
# block into its default 4 KiB proxy_buffer_size (beside the cache key, the
# URI), so the Link header, which repeats the query in every link, keeps
# only `next` here (2 KiB budget); with every link (about 3.2 KB) nginx answered
# 502 "upstream sent too big header".
long="author__not_in=$(printf 'a%.0s' $(seq 250)),$(printf 'b%.0s' $(seq 250)),$(printf 'c%.0s' $(seq 250))"
fetch long-query "$base/books?per_page=1&$long"
expect long-query status "$(status long-query)" 200
expect long-query X-Cache-Status "$(header long-query x-cache-status)" MISS
expect long-query Link "$(header long-query link)" "</books?per_page=1&$long&page=2>; rel=\"next\""

log "passed (versions kept apart by Vary, HITs of the right version, 304 from the cache and REVALIDATED by the catalog's 304, a long query's Link header within nginx's default buffer)"
