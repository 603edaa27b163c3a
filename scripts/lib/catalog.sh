# shellcheck shell=bash
# The catalog, started for a check script (openapi-check, python-client-check,
# redbot-check): sourced, not run.
#
#   start_catalog <name> <bin> <out dir> <seed rows> <admin token> <editor token>
#
# starts <bin> on a free loopback port (in-memory SQLite, <seed rows> seeded
# books, the two bearer tokens, a fixed cursor key, production mode), its
# log in <out dir>/catalog.log, stdout in <out dir>/catalog.stdout; waits at
# most 30 s for "catalog listening on http://127.0.0.1:<port>" in the log and
# sets `base` to that URL and `catalog_pid` to its process. An EXIT trap
# stops it. Messages start with "<name>: ".

stop_catalog() {
    if [ -n "${catalog_pid:-}" ] && kill -0 "$catalog_pid" 2>/dev/null; then
        kill "$catalog_pid" 2>/dev/null || true
        wait "$catalog_pid" 2>/dev/null || true
    fi
}

start_catalog() {
    local name="$1" bin="$2" out="$3" seed_rows="$4" admin_token="$5" editor_token="$6"
    local log="$out/catalog.log" addr=""
    # A log of an earlier run must not be read for this run's address.
    rm -f "$log"
    CATALOG_ADDR=127.0.0.1:0 \
    CATALOG_SEED_ROWS="$seed_rows" \
    CATALOG_WORKERS=2 \
    CATALOG_ADMIN_TOKEN="$admin_token" \
    CATALOG_EDITOR_TOKEN="$editor_token" \
    CATALOG_CURSOR_KEY="$name-cursor-key-0123456789abcdef" \
    CATALOG_ALLOWED_HOSTS="127.0.0.1" \
    NODE_ENV=production \
    RUST_LOG="${RUST_LOG:-warn,catalog=info,examples=info}" \
    DATABASE_URL="" \
        "$bin" >"$out/catalog.stdout" 2>"$log" &
    catalog_pid=$!
    trap stop_catalog EXIT
    for _ in $(seq 1 300); do
        addr="$(grep -o 'catalog listening on http://127\.0\.0\.1:[0-9]*' "$log" 2>/dev/null | head -n1 | sed 's|.*http://||' || true)"
        [ -n "$addr" ] && break
        if ! kill -0 "$catalog_pid" 2>/dev/null; then
            echo "$name: the catalog exited early:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.1
    done
    if [ -z "$addr" ]; then
        echo "$name: the catalog did not start within 30 s" >&2
        cat "$log" >&2
        exit 1
    fi
    base="http://$addr"
}
