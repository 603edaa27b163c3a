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

#   python_tools <name> <venv> <requirements file> <a tool the venv must have>
#
# makes <venv> a virtualenv with the pinned requirements, unless it already
# has them (the requirements file is kept in it to compare).
python_tools() {
    local name="$1" venv="$2" requirements="$3" tool="$4"
    echo "$name: python tools in $venv"
    if [ ! -x "$venv/bin/$tool" ] || ! cmp -s "$requirements" "$venv/.requirements"; then
        python3 -m venv "$venv"
        timeout 600 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
        cp "$requirements" "$venv/.requirements"
    fi
}

#   catalog_binary <name> <target dir>
#
# sets `bin` to the catalog binary: `CATALOG_BIN` when set, else the debug
# build, built here.
catalog_binary() {
    local name="$1" target="$2"
    if [ -n "${CATALOG_BIN:-}" ]; then
        bin="$CATALOG_BIN"
        echo "$name: using the catalog $bin"
    else
        echo "$name: building the catalog"
        cargo build --quiet -p examples --bin catalog
        bin="$target/debug/catalog"
    fi
}
