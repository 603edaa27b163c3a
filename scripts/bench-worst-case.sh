#!/usr/bin/env bash
# Worst-case latency of the catalog under its query limits (RELIABILITY.md):
# the slowest requests the limits allow, on SQLite and, when
# TEST_POSTGRES_URL is set (e.g. `eval "$(bash .ci/postgres.sh)"`), on
# PostgreSQL, 10,000 rows each. A benchmark, not a test: it prints figures
# and exits non-zero only when an answer is not a 200 or takes 1 s or more.
#
# Usage: scripts/bench-worst-case.sh [runs, default 20]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-20}"
cargo build --release -p examples --bin catalog --example worst_case >&2
TARGET="${CARGO_TARGET_DIR:-target}"
"$TARGET/release/examples/worst_case" --catalog "$TARGET/release/catalog" --runs "$RUNS"
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
    psql "$TEST_POSTGRES_URL" -qc 'DROP TABLE IF EXISTS books, covers' >&2
    "$TARGET/release/examples/worst_case" --catalog "$TARGET/release/catalog" --runs "$RUNS" \
        --database-url "$TEST_POSTGRES_URL"
fi
