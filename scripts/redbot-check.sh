#!/usr/bin/env bash
# REDbot, the HTTP resource linter, on the running catalog (issue 14):
#
#   1. installs redbot (pinned, scripts/redbot-requirements.txt) into a
#      virtualenv with pip;
#   2. builds the catalog and starts it on a free loopback port (in-memory
#      SQLite, a small seed);
#   3. runs REDbot (scripts/redbot/lint.py: REDbot's own checker, as its
#      `redbot` command runs it, with a method and request headers) on
#      `/books`, `/books/1`, `/v2/books`, a 404 (`/books/999999`) and the 503
#      (`/demo/errors/unavailable`), each with GET and HEAD, version 2 also
#      selected by header and by media type, OPTIONS on two paths and a Link
#      whose query needs percent-encoding; REDbot's subrequests add the
#      conditional (If-None-Match) and gzip negotiation checks;
#   4. fails (scripts/redbot/report.py) when a response's status is not the
#      expected one, when REDbot gives a note of level WARN or BAD that the
#      allowlist below does not name, or when a HEAD response's status or
#      header fields differ from the GET's.
#
# The output, per request, is summarized in the README ("REDbot").
#
# Usage: scripts/redbot-check.sh
# Environment (all optional):
#   CATALOG_BIN      a catalog binary to use instead of building one
#   REDBOT_VENV      virtualenv directory (default: <target dir>/redbot-venv)
#   REDBOT_DIR       where the results and logs go
#                    (default: <target dir>/redbot-check)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="${REDBOT_VENV:-$target/redbot-venv}"
out="${REDBOT_DIR:-$target/redbot-check}"
requirements="$root/scripts/redbot-requirements.txt"
mkdir -p "$out"

# Expected status, then the request: `METHOD PATH[ | Header: value]...`.
requests=(
    "200 GET /books"
    "200 HEAD /books"
    "200 GET /books/1"
    "200 HEAD /books/1"
    "200 GET /v2/books"
    "200 HEAD /v2/books"
    "200 GET /books | X-API-Version: 2"
    "200 GET /books/1 | Accept: application/vnd.catalog.v2+json"
    "200 GET /books?title__contains=a%7Cb&per_page=2"
    "404 GET /books/999999"
    "404 HEAD /books/999999"
    "503 GET /demo/errors/unavailable"
    "503 HEAD /demo/errors/unavailable"
    "204 OPTIONS /books"
    "204 OPTIONS /books/1"
)

# WARN and BAD notes that are not defects: `NOTE_ID REQUEST-GLOB # reason`.
# Anything REDbot warns about that is not listed here fails the check.
cat >"$out/allowlist.txt" <<'EOF'
DEPRECATION_PAST * /v2/*                                          # version 2 is deprecated on purpose; Deprecation and Sunset announce it
DEPRECATION_PAST * | X-API-Version: 2                             # the same version 2, chosen by the header
DEPRECATION_PAST * | Accept: application/vnd.catalog.v2+json      # the same version 2, chosen by the media type
EOF

# shellcheck source=scripts/lib/catalog.sh
. "$root/scripts/lib/catalog.sh"
python_tools redbot-check "$venv" "$requirements" redbot
catalog_binary redbot-check "$target"

rm -f "$out/redbot.jsonl"
start_catalog redbot-check "$bin" "$out" 50 "redbot-check-admin-token" "redbot-check-editor-token"
echo "redbot-check: catalog at $base; ${#requests[@]} requests"

for entry in "${requests[@]}"; do
    expected="${entry%% *}"
    request="${entry#* }"
    # REDbot's own timeouts bound each request; this bounds the whole run of one.
    if ! line="$(timeout --kill-after=5 60 "$venv/bin/python" "$root/scripts/redbot/lint.py" "$base" "$request")"; then
        echo "redbot-check: REDbot failed on $request" >&2
        exit 1
    fi
    "$venv/bin/python" -c 'import json, sys; r = json.loads(sys.argv[1]); r["expected_status"] = int(sys.argv[2]); print(json.dumps(r))' \
        "$line" "$expected" >>"$out/redbot.jsonl"
done

"$venv/bin/python" "$root/scripts/redbot/report.py" "$out/redbot.jsonl" "$out/allowlist.txt"
echo "redbot-check: passed"
