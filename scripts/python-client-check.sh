#!/usr/bin/env bash
# A generated client against the catalog (issue 14):
#
#   1. installs openapi-python-client and the generated client's run-time
#      dependencies (pinned, scripts/python-client-requirements.txt) into a
#      virtualenv with pip;
#   2. builds the catalog and starts it on a free loopback port (in-memory
#      SQLite, a small seed, fixed tokens);
#   3. generates the Python package `catalog_client` from the running
#      catalog's /openapi.json (scripts/python_client/generator-config.yaml;
#      any generator warning fails the check: a piece the generator had to
#      leave out is a document defect);
#   4. runs scripts/python_client/test_catalog_client.py, which only calls
#      the generated functions: pages through an offset listing to the end,
#      through a whole keyset listing (limit, then meta.next_cursor until
#      null) visiting every book exactly once, filters with exploded `__in`
#      lists, creates a book with the editor's bearer token and reads the 409
#      duplicate-isbn problem; then deletes a book and uploads a cover (as a
#      file) with If-Match, a stale tag answered with the 412 problem.
#
# Usage: scripts/python-client-check.sh
# Environment (all optional):
#   CATALOG_BIN          a catalog binary to use instead of building one
#   PYCLIENT_VENV        virtualenv directory (default: <target dir>/python-client-venv)
#   PYCLIENT_DIR         where the document, the generated client and the
#                        logs go (default: <target dir>/python-client-check)
#   PYCLIENT_MAX_TIME    time limit of the test run in seconds (default 120)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="${PYCLIENT_VENV:-$target/python-client-venv}"
out="${PYCLIENT_DIR:-$target/python-client-check}"
max_time="${PYCLIENT_MAX_TIME:-120}"
requirements="$root/scripts/python-client-requirements.txt"
mkdir -p "$out" "$(dirname "$venv")"
# Absolute: the generator runs ruff from the venv's bin on PATH, elsewhere.
venv="$(cd "$(dirname "$venv")" && pwd)/$(basename "$venv")"
out="$(cd "$out" && pwd)"

# shellcheck source=scripts/lib/catalog.sh
. "$root/scripts/lib/catalog.sh"
python_tools python-client-check "$venv" "$requirements" openapi-python-client
catalog_binary python-client-check "$target"

rm -rf "$out/openapi.json" "$out/client"
seed_rows=300
editor_token="python-client-check-editor-token"
admin_token="python-client-check-admin-token"
start_catalog python-client-check "$bin" "$out" "$seed_rows" "$admin_token" "$editor_token"
echo "python-client-check: catalog at $base"

curl --silent --show-error --fail --max-time 10 --retry 5 --retry-connrefused \
    "$base/openapi.json" -o "$out/openapi.json"

echo "python-client-check: generating catalog_client from /openapi.json"
# The generator formats its output with ruff, installed in the venv with it.
if ! PATH="$venv/bin:$PATH" timeout 300 "$venv/bin/openapi-python-client" generate \
    --path "$out/openapi.json" \
    --config "$root/scripts/python_client/generator-config.yaml" \
    --meta none \
    --output-path "$out/client/catalog_client" \
    --fail-on-warning >"$out/generate.log" 2>&1; then
    cat "$out/generate.log" >&2
    echo "python-client-check: openapi-python-client failed or warned on the document" >&2
    exit 1
fi

echo "python-client-check: running the generated client's tests"
PYTHONPATH="$out/client" \
PYTHONDONTWRITEBYTECODE=1 \
CATALOG_BASE_URL="$base" \
CATALOG_EDITOR_TOKEN="$editor_token" \
CATALOG_ADMIN_TOKEN="$admin_token" \
CATALOG_SEED_ROWS="$seed_rows" \
    timeout --kill-after=10 "$max_time" \
    "$venv/bin/python" "$root/scripts/python_client/test_catalog_client.py"

echo "python-client-check: passed"
