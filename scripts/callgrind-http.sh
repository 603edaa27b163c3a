#!/usr/bin/env bash
# Instructions per request of one path of the bench server
# (examples/src/bin/bench_server.rs), counted by callgrind (BENCHMARKS.md):
# the server runs under `valgrind --tool=callgrind` on loopback, gets 50
# warm-up requests, its counters are zeroed, `wrk -t1 -c1` loads the path
# for DURATION seconds (default 4), the counters are dumped, and the total
# is divided by the requests wrk made. Every request carries
# `X-API-Version: 3`. Instruction counts do not depend on the machine's
# load, so two binaries can be compared on a busy host.
#
#   scripts/callgrind-http.sh '/full/books?page=2&per_page=10&sort=-year,title&year__gte=1990&title__contains=Night&q=rain'
#   BIN=/tmp/bench_server.old scripts/callgrind-http.sh /full/nope
#
# Settings: BIN (default target/release/bench_server, built when missing),
# DURATION (seconds), PORT (default 18500). Needs valgrind and wrk
# (Debian packages); loopback only, bounded by DURATION.
set -euo pipefail
cd "$(dirname "$0")/.."
path="${1:?usage: scripts/callgrind-http.sh <path-and-query>}"
BIN="${BIN:-${CARGO_TARGET_DIR:-target}/release/bench_server}"
DURATION="${DURATION:-4}"
PORT="${PORT:-18500}"
for tool in valgrind callgrind_control wrk; do
    command -v "$tool" >/dev/null || { echo "callgrind-http: $tool is not installed" >&2; exit 1; }
done
[ -x "$BIN" ] || cargo build --release -p examples --bin bench_server >&2
work="$(mktemp -d)"
BENCH_ADDR="127.0.0.1:$PORT" valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$BIN" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill -INT "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
    grep -q 'listening' "$work/server.log" && break
    sleep 0.2
done
url="http://127.0.0.1:$PORT$path"
for _ in $(seq 1 50); do
    curl -s -o /dev/null --max-time 10 -H 'X-API-Version: 3' "$url"
done
callgrind_control -z "$pid" >/dev/null 2>&1
requests="$(wrk -t1 -c1 -d"${DURATION}s" -H 'X-API-Version: 3' "$url" | awk '/requests in/ {print $1}')"
callgrind_control -d "$pid" >/dev/null 2>&1
sleep 1
instructions="$(grep -h -m1 '^summary:' "$work/cg.out.1" | awk '{print $2}')"
echo "$path: $requests requests, $instructions instructions, $((instructions / requests)) per request"
