#!/usr/bin/env bash
# Fault runs of the catalog under load (results: RELIABILITY.md).
#
# Usage (as root, on Debian): scripts/faults.sh [seconds per run, default 60]
#
# 1. PostgreSQL stopped under load: a throw-away cluster from
#    .ci/postgres.sh, a role with a distinctive password (so the secret check
#    can look for it), the catalog on it; the load generator stops the
#    cluster at 1/4 of the run and starts it again at 7/12 (`-m fast`, then
#    `-m immediate`, a crash). Checks: database routes fail only as masked
#    503/500 problems, nothing is slower than 8 s, no connection error or
#    timeout, and from 10 s after the restart on no database route answers
#    5xx (service resumed by itself).
# 2. Hostile clients on SQLite: 200 slow clients trickling their request
#    heads, on top of the mix that already sends bodies cut off mid-way and
#    bodies streamed past the size limit; the others' latency stays low.
# PostgreSQL is started again on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."

SECS="${1:-60}"
STOP_AT=$(( SECS / 4 ))
START_AT=$(( SECS * 7 / 12 ))

eval "$(bash .ci/postgres.sh)"   # exports TEST_POSTGRES_URL
PORT="${PGPORT:-54329}"
VERSION="$(ls /usr/lib/postgresql | sort -V | tail -n1)"
CLUSTER=problemtest
ROLE=catalog_fault
PASSWORD='Fx9-soak-db-pw-71c3e0'
DB=catalog_fault
psql_admin() { su postgres -c "psql -v ON_ERROR_STOP=1 -p $PORT -h /var/run/postgresql -Atc \"$1\""; }
if [ "$(psql_admin "select 1 from pg_roles where rolname='$ROLE'")" != "1" ]; then
    psql_admin "create role $ROLE login password '$PASSWORD'" >&2
fi
if [ "$(psql_admin "select 1 from pg_database where datname='$DB'")" != "1" ]; then
    psql_admin "create database $DB owner $ROLE" >&2
fi
URL="postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
trap 'pg_ctlcluster "$VERSION" "$CLUSTER" start >/dev/null 2>&1 || true' EXIT

cargo build --release -p examples --bin catalog --example soak >&2
TARGET="${CARGO_TARGET_DIR:-target}"
SOAK=("$TARGET/release/examples/soak" --catalog "$TARGET/release/catalog")

status=0
for mode in fast immediate; do
    echo "=== PostgreSQL stopped (-m $mode) at ${STOP_AT} s, started at ${START_AT} s"
    "${SOAK[@]}" --seconds "$SECS" --warmup 10 --database-url "$URL" \
        --exec-at "$STOP_AT:pg_ctlcluster $VERSION $CLUSTER stop -m $mode" \
        --exec-at "$START_AT:pg_ctlcluster $VERSION $CLUSTER start" \
        --recover-within 10 --max-latency-ms 8000 || status=1
done

echo "=== 200 slow clients, bodies cut off and streamed past the limit (SQLite)"
# 200 slow connections take ~10 s to reach their steady memory: warm up 15 s.
"${SOAK[@]}" --seconds "$SECS" --warmup 15 --slow-clients 200 || status=1
exit $status
