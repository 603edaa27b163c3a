#!/usr/bin/env bash
# Starts a throw-away PostgreSQL server on 127.0.0.1 for the SQL tests of the
# collection queries (problem-core/src/query/sql.rs) and prints the URL.
#
# Usage (as root, on Debian; idempotent: a second run reuses the cluster):
#   eval "$(bash .ci/postgres.sh)"      # exports TEST_POSTGRES_URL
#
# Installs Debian's `postgresql` package when it is missing, creates (once) a
# cluster named `problemtest` listening only on 127.0.0.1:${PGPORT:-54329},
# starts it, and creates the role and database `problem` with a password.
# Only the final `export TEST_POSTGRES_URL=...` line goes to stdout; progress
# goes to stderr. Exits non-zero when the server cannot be started.
set -euo pipefail

PORT="${PGPORT:-54329}"
CLUSTER=problemtest
ROLE=problem
PASSWORD=problem
DB=problem

log() { echo "postgres.sh: $*" >&2; }

if ! command -v pg_createcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    log "installing postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y --no-install-recommends postgresql >&2
fi

VERSION="$(ls /usr/lib/postgresql | sort -V | tail -n1)"
if [ -z "$VERSION" ]; then
    log "no PostgreSQL server binaries found"
    exit 1
fi

if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$VERSION $CLUSTER"; then
    log "creating cluster $VERSION/$CLUSTER on port $PORT"
    pg_createcluster "$VERSION" "$CLUSTER" --port "$PORT" \
        -- --auth-local=peer --auth-host=scram-sha-256 >&2
    echo "listen_addresses = '127.0.0.1'" >> "/etc/postgresql/$VERSION/$CLUSTER/postgresql.conf"
fi

STATUS="$(pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1==v && $2==c {print $4}')"
if [ "$STATUS" != "online" ]; then
    log "starting cluster $VERSION/$CLUSTER"
    pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi

# Wait until it accepts connections (at most ~30 s).
for _ in $(seq 1 60); do
    if su postgres -c "psql -p $PORT -h /var/run/postgresql -Atc 'select 1'" >/dev/null 2>&1; then
        break
    fi
    sleep 0.5
done
su postgres -c "psql -p $PORT -h /var/run/postgresql -Atc 'select 1'" >/dev/null

psql_admin() { su postgres -c "psql -v ON_ERROR_STOP=1 -p $PORT -h /var/run/postgresql -Atc \"$1\""; }

if [ "$(psql_admin "select 1 from pg_roles where rolname='$ROLE'")" != "1" ]; then
    log "creating role $ROLE"
    psql_admin "create role $ROLE login password '$PASSWORD'" >&2
fi
if [ "$(psql_admin "select 1 from pg_database where datname='$DB'")" != "1" ]; then
    log "creating database $DB"
    psql_admin "create database $DB owner $ROLE" >&2
fi

URL="postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
# Check the URL works over TCP with the password.
PGPASSWORD="$PASSWORD" psql "$URL" -Atc 'select 1' >/dev/null
log "ready: $URL"
echo "export TEST_POSTGRES_URL=$URL"
