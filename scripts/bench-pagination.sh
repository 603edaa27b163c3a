#!/usr/bin/env bash
# Deep pagination on SQLite (BENCHMARKS.md): latency of a page at 1%, 50%
# and 90% depth with offset pagination and keyset cursors, same sort and
# filter, on 1,000,000 generated rows (examples/src/bin/bench_pagination.rs).
#
# Settings (environment): BENCH_DB (default /tmp/bench-pagination.db; seeded
# on first use, about 40 s and 150 MB, reused afterwards), BENCH_ROWS
# (default 1000000), BENCH_SAMPLES (timed runs per figure, default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p examples --bin bench_pagination >&2
target="${CARGO_TARGET_DIR:-target}"
timeout 1800 "$target/release/bench_pagination"
