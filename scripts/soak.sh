#!/usr/bin/env bash
# Load and soak test of the catalog (results: RELIABILITY.md).
#
# Usage: scripts/soak.sh [seconds, default 60] [extra soak options...]
#
# Builds the catalog and the load generator (examples/examples/soak.rs) in
# release mode, then runs the generator: it starts the catalog on a free
# loopback port (127.0.0.1:0) with known tokens and cursor key, drives it on
# loopback only with bounded concurrency for the given time, checks every
# response and the catalog's log, prints the report, and stops the catalog.
# Exits non-zero when a check fails. Extra options go to the generator, e.g.
#   scripts/soak.sh 120 --concurrency 64 --database-url postgres://...
set -euo pipefail
cd "$(dirname "$0")/.."

SECS="${1:-60}"
shift || true
WARMUP=$(( SECS / 6 > 5 ? SECS / 6 : 5 ))

cargo build --release -p examples --bin catalog --example soak >&2
TARGET="${CARGO_TARGET_DIR:-target}"
exec "$TARGET/release/examples/soak" --catalog "$TARGET/release/catalog" \
    --seconds "$SECS" --warmup "$WARMUP" "$@"
