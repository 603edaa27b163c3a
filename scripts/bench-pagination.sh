#!/usr/bin/env bash
# Deep pagination (BENCHMARKS.md): latency of a page at 1%, 50% and 90%
# depth with offset pagination and keyset cursors, same sort and filter, a
# backward keyset page (prev_cursor) at 90% depth, and the first offset page
# with Prefer: count=none, count=estimated and count=exact, on 1,000,000
# generated rows (examples/src/bin/bench_pagination.rs): on SQLite, then on
# PostgreSQL when BENCH_POSTGRES_URL is set.
#
# Settings (environment): BENCH_DB (default /tmp/bench-pagination.db; seeded
# on first use, about 40 s and 150 MB, reused afterwards), BENCH_POSTGRES_URL
# (e.g. the URL .ci/postgres.sh prints; the rows go to the schema
# bench_pagination, seeded on first use, reused afterwards), BENCH_ROWS
# (default 1000000), BENCH_SAMPLES (timed runs per figure, default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p examples --bin bench_pagination >&2
target="${CARGO_TARGET_DIR:-target}"
echo "## SQLite"
timeout 1800 "$target/release/bench_pagination"
if [ -n "${BENCH_POSTGRES_URL:-}" ]; then
    echo
    echo "## PostgreSQL"
    BENCH_DB="$BENCH_POSTGRES_URL" timeout 3600 "$target/release/bench_pagination"
fi
