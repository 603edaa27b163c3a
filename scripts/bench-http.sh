#!/usr/bin/env bash
# HTTP overhead of the whole stack (BENCHMARKS.md): drives the bench server
# (examples/src/bin/bench_server.rs) with wrk on loopback, alternating the
# bare actix-web mode and the full-stack mode (A B A B ...), and prints
# requests/s and p99 latency of each with the ratio full / bare:
#
#   success: GET /bare/books (no extractor)         vs GET /full/books?<collection query>
#            GET /bare/query/books (web::Query<T>)  (for information: plain actix-web reading the query)
#   404:     GET /bare/nope (actix's bare 404)      vs GET /full/nope (404 problem document)
#   ETag:    GET /noetag/page (20-item page, full stack without the
#            conditional-request layer)             vs GET /full/page (with it: strong ETag)
# Every request carries the query string and X-API-Version: 3.
#
# The server runs on core 0 and wrk on core 1 (taskset, when there are two
# cores or more), so the kernel's loopback work is split the same way for
# every mode. The server counts its allocations (a counting global
# allocator, GET /stats); each mode's allocations and bytes per request are
# the difference over its runs divided by the requests wrk made.
#
# Each round runs every mode once, in the order above in odd rounds and in
# reverse in even ones; besides the ratio of the per-mode medians, the
# script prints the median (and range) of each round's own ratio, whose two
# sides ran seconds apart: the host's speed moves by more than 10% from one
# round to the next on a shared machine.
#
# The rounds' ratios are summed up by their median, quartiles and range.
# One comparison alone can be run many times in short rounds, which
# resolves a small difference better than a few long rounds do, e.g. the
# ETag's cost: MODES="noetag_page full_page" ROUNDS=61 DURATION=1.
#
# Bounded in time: ROUNDS x (number of MODES) runs of DURATION seconds plus
# a short warm-up.
# Settings (environment): ROUNDS (default 5), DURATION (seconds, default 3),
# MODES (the modes to run, default all seven: bare_ok full_ok bare_query_ok
# bare_404 full_404 noetag_page full_page; a comparison is printed when
# both its modes ran), CONNECTIONS (default 16), THREADS (wrk threads,
# default 1), BENCH_WORKERS (server workers, default 1).
# Needs wrk (Debian package `wrk`); installs it with apt-get when missing and root.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-5}"
DURATION="${DURATION:-3}"
CONNECTIONS="${CONNECTIONS:-16}"
THREADS="${THREADS:-1}"
export BENCH_WORKERS="${BENCH_WORKERS:-1}"

if ! command -v wrk >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
    else
        echo "bench-http: wrk is not installed (apt-get install wrk)" >&2
        exit 1
    fi
fi

cargo build --release -p examples --bin bench_server >&2
target="${CARGO_TARGET_DIR:-target}"
server_log="$(mktemp)"
SERVER_PIN=()
WRK_PIN=()
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
    SERVER_PIN=(taskset -c 0)
    WRK_PIN=(taskset -c 1)
else
    echo "bench-http: not pinning (taskset missing or one core): server and wrk share the cores" >&2
fi
BENCH_ADDR=127.0.0.1:0 "${SERVER_PIN[@]}" "$target/release/bench_server" >"$server_log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; rm -f "$server_log"' EXIT

base=""
for _ in $(seq 1 100); do
    base="$(sed -n 's/^bench_server listening on \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$server_log" | head -n 1)"
    [ -n "$base" ] && break
    sleep 0.1
done
if [ -z "$base" ]; then
    echo "bench-http: the server did not start:" >&2
    cat "$server_log" >&2
    exit 1
fi

QUERY='page=2&per_page=10&sort=-year,title&year__gte=1990&title__contains=Night&q=rain'
declare -A URL HDR
URL[bare_ok]="$base/bare/books?$QUERY"
URL[bare_query_ok]="$base/bare/query/books?$QUERY"
URL[full_ok]="$base/full/books?$QUERY"
URL[bare_404]="$base/bare/nope"
URL[full_404]="$base/full/nope"
URL[noetag_page]="$base/noetag/page"
URL[full_page]="$base/full/page"
HDR[bare_ok]="X-API-Version: 3"
HDR[bare_query_ok]="X-API-Version: 3"
HDR[full_ok]="X-API-Version: 3"
HDR[bare_404]="X-API-Version: 3"
HDR[full_404]="X-API-Version: 3"
HDR[noetag_page]="X-API-Version: 3"
HDR[full_page]="X-API-Version: 3"

# Sanity: each mode answers what it should (not timed).
check() {
    local name="$1" want="$2" got
    got="$(curl -s -o /dev/null -w '%{http_code}' -H "${HDR[$name]}" "${URL[$name]}")"
    if [ "$got" != "$want" ]; then
        echo "bench-http: $name answered $got, expected $want" >&2
        exit 1
    fi
}
check bare_ok 200
check bare_query_ok 200
check full_ok 200
check bare_404 404
check full_404 404
check noetag_page 200
check full_page 200
if ! curl -s -D - -o /dev/null -H "${HDR[full_page]}" "${URL[full_page]}" | grep -qi '^etag:'; then
    echo "bench-http: /full/page has no ETag" >&2
    exit 1
fi
if curl -s -D - -o /dev/null -H "${HDR[noetag_page]}" "${URL[noetag_page]}" | grep -qi '^etag:'; then
    echo "bench-http: /noetag/page has an ETag" >&2
    exit 1
fi

allocations() { curl -s "$base/stats"; echo; }

# One wrk run: prints "<requests/s> <p99 in ms> <allocations/request> <bytes/request>".
run() {
    local name="$1" seconds="$2" out rps p99 requests a0 b0 a1 b1
    read -r a0 b0 < <(allocations)
    out="$(timeout $((seconds + 10)) "${WRK_PIN[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" --latency \
        -H "${HDR[$name]}" "${URL[$name]}")"
    read -r a1 b1 < <(allocations)
    if grep -q "Non-2xx or 3xx responses" <<<"$out" && [[ "$name" == *_ok ]]; then
        echo "bench-http: $name had error responses" >&2
        exit 1
    fi
    rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
    p99="$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}' <<<"$out")"
    requests="$(awk '/ requests in / {print $1}' <<<"$out")"
    awk -v r="$rps" -v p="$p99" -v n="$requests" -v a="$((a1 - a0))" -v b="$((b1 - b0))" \
        'BEGIN {printf "%s %s %.1f %.0f\n", r, p, a / n, b / n}'
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

ALL_MODES="bare_ok full_ok bare_query_ok bare_404 full_404 noetag_page full_page"
MODES="${MODES:-$ALL_MODES}"
for name in $MODES; do
    if [ -z "${URL[$name]:-}" ]; then
        echo "bench-http: unknown mode $name (modes: $ALL_MODES)" >&2
        exit 1
    fi
done
echo "wrk -t$THREADS -c$CONNECTIONS, $ROUNDS rounds of ${DURATION}s per mode ($MODES), server workers $BENCH_WORKERS, $(nproc) cores" >&2
for name in $MODES; do run "$name" 1 >/dev/null; done

# The order reverses every other round (see the header), so a drift of the
# host within a round favours neither side of a comparison.
declare -A RPS P99 ALLOC BYTES LAST PAIRED
# `compare <kind> <a> <b>`: for `ratio`, a / b (requests/s of the full
# stack over the bare side); for `cost`, b / a - 1 in percent (the time per
# request of a over that of b, minus 1).
compare() {
    if [ "$1" = cost ]; then
        awk -v a="$2" -v b="$3" 'BEGIN {printf "%.1f", (b / a - 1) * 100}'
    else
        awk -v a="$2" -v b="$3" 'BEGIN {printf "%.3f", a / b}'
    fi
}
# The comparisons, one per line: `key|a|b|kind|target|label|description`,
# each printed when both its modes ran; a `ratio` is met at or above its
# target, a `cost` at or below.
COMPARISONS=(
    "q|full_ok|bare_query_ok|ratio|1.0|full/query|full stack / bare actix-web with web::Query of a plain struct, success"
    "ok|full_ok|bare_ok|ratio|0.90|full/bare|full stack / bare do-nothing actix-web handler, success"
    "nf|full_404|bare_404|ratio|0.90|404|404 problem / actix bare 404"
    "etag|full_page|noetag_page|cost|3|ETag-cost|ETag cost on a 20-item page: time per request with / without, minus 1 (%)"
)
ran() { [[ " $MODES " == *" $1 "* && " $MODES " == *" $2 "* ]]; }
REVERSED="$(tr ' ' '\n' <<<"$MODES" | tac | tr '\n' ' ')"
for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then order="$MODES"; else order="$REVERSED"; fi
    for name in $order; do
        read -r rps p99 alloc bytes < <(run "$name" "$DURATION")
        RPS[$name]+="$rps "
        LAST[$name]="$rps"
        P99[$name]+="$p99 "
        ALLOC[$name]+="$alloc "
        BYTES[$name]+="$bytes "
        echo "round $round $name: $rps req/s, p99 $p99 ms, $alloc allocations ($bytes bytes) per request" >&2
    done
    line=""
    for comparison in "${COMPARISONS[@]}"; do
        IFS='|' read -r key a b kind _ label _ <<<"$comparison"
        ran "$a" "$b" || continue
        value="$(compare "$kind" "${LAST[$a]}" "${LAST[$b]}")"
        PAIRED[$key]+="$value "
        unit=""
        if [ "$kind" = cost ]; then unit="%"; fi
        line+=" $label $value$unit,"
    done
    echo "round $round ratios:${line%,}" >&2
done

stat() { tr ' ' '\n' <<<"$1" | grep -v '^$' | median; }
printf '\n| mode | requests/s (median of %s) | p99 ms (median) | allocations / request | bytes allocated / request |\n|---|---|---|---|---|\n' "$ROUNDS"
for name in $MODES; do
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$(stat "${RPS[$name]}")" "$(stat "${P99[$name]}")" \
        "$(stat "${ALLOC[$name]}")" "$(stat "${BYTES[$name]}")"
done
# The median of the rounds' own values, their quartiles and their range.
quantile() { sort -g | awk -v q="$1" '{a[NR]=$1} END {i = 1 + q * (NR - 1); l = int(i); h = (l < NR) ? l + 1 : l; printf "%g", a[l] + (i - l) * (a[h] - a[l])}'; }
paired() {
    local values
    values="$(tr ' ' '\n' <<<"${PAIRED[$1]}" | grep -v '^$')"
    printf '%s (quartiles %s to %s; range %s to %s)' "$(median <<<"$values")" \
        "$(quantile 0.25 <<<"$values")" "$(quantile 0.75 <<<"$values")" \
        "$(quantile 0 <<<"$values")" "$(quantile 1 <<<"$values")"
}
printf '\n| comparison | of the medians of requests/s | median of the rounds'"'"' values (quartiles; range) | target | met (by the rounds'"'"' median) |\n|---|---|---|---|---|\n'
for comparison in "${COMPARISONS[@]}"; do
    IFS='|' read -r key a b kind target _ description <<<"$comparison"
    ran "$a" "$b" || continue
    # A cost is met at or below its target, a ratio at or above.
    bound=">= $target"
    if [ "$kind" = cost ]; then bound="<= $target"; fi
    met="$(awk -v v="$(stat "${PAIRED[$key]}")" -v t="$target" -v k="$kind" \
        'BEGIN {print ((k == "cost") ? (v <= t) : (v >= t)) ? "yes" : "no"}')"
    printf '| %s | %s | %s | %s | %s |\n' "$description" \
        "$(compare "$kind" "$(stat "${RPS[$a]}")" "$(stat "${RPS[$b]}")")" "$(paired "$key")" "$bound" "$met"
done
