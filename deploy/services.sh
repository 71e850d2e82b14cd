#!/usr/bin/env bash
# Start or stop a private PostgreSQL and Redis on loopback, for the services-mode test run and
# for trying the production topology on one Debian/Ubuntu machine without touching the system
# instances. Uses the distribution's packages (apt-get install postgresql redis-server).
#
#   deploy/services.sh start        # prints the environment to export (also written to $dir/env);
#                                   # starts again whichever of the two is not running
#   deploy/services.sh fresh        # the same as start, on an empty database (benches measure
#                                   # storage on what they wrote themselves)
#   deploy/services.sh stop
#   deploy/services.sh stop-redis   # Redis only (the services tests of a broker outage)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${MOON_SERVICES_DIR:-$root/var/services}
pg_port=${MOON_PG_PORT:-55432}
redis_port=${MOON_REDIS_PORT:-56379}
pgdata=$dir/pg
# As root, PostgreSQL runs as the postgres user, which must be able to reach its data directory:
# when the checkout sits under a private directory (e.g. /root), keep the data under /tmp instead.
if [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
  mkdir -p "$dir"
  if ! runuser -u postgres -- test -x "$dir"; then
    pgdata=/tmp/moon-services-$(printf %s "$dir" | cksum | cut -d' ' -f1)/pg
  fi
fi

pg_bin() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
  echo "$bin"
}

# PostgreSQL refuses to run as root: run its programs as the postgres user then.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  local bin
  bin=$(pg_bin)
  command -v redis-server >/dev/null || { echo "Redis is not installed (apt-get install redis-server)" >&2; exit 1; }
  mkdir -p "$dir"
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    mkdir -p "$pgdata"
    chmod 755 "$(dirname "$pgdata")"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$pgdata"
    as_pg "$bin/initdb" -D "$pgdata" -U postgres --auth=trust -E UTF8 >/dev/null
  fi
  if ! as_pg "$bin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
    as_pg "$bin/pg_ctl" -D "$pgdata" -w -l "$pgdata/server.log" \
      -o "-p $pg_port -k $pgdata -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
  fi
  # Two roles (deploy/README.md, "Database roles"): moon_owner owns the database and its tables
  # and runs the migrations; moon, the application's, owns nothing and may only read and insert
  # events (granted by migrate). moon_owner may create databases: the test suite makes its own.
  psql_pg() { as_pg "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 "$@"; }
  psql_pg -tAc "SELECT 1 FROM pg_roles WHERE rolname='moon_owner'" | grep -q 1 ||
    psql_pg -qc "CREATE ROLE moon_owner LOGIN CREATEDB PASSWORD 'moon_owner'"
  psql_pg -tAc "SELECT 1 FROM pg_roles WHERE rolname='moon'" | grep -q 1 ||
    psql_pg -qc "CREATE ROLE moon LOGIN PASSWORD 'moon'"
  psql_pg -qc "ALTER ROLE moon NOCREATEDB"
  if psql_pg -tAc "SELECT 1 FROM pg_database WHERE datname='moon'" | grep -q 1; then
    # a database made before the two roles, owned by moon: everything moon owns goes to moon_owner
    psql_pg -d moon -qc "REASSIGN OWNED BY moon TO moon_owner"
  else
    psql_pg -qc "CREATE DATABASE moon OWNER moon_owner"
  fi
  key_file=$dir/history-signing-key
  if [ ! -s "$key_file" ]; then
    (umask 077 && head -c 32 /dev/urandom | base64 > "$key_file")
  fi
  if ! redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
    redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes --save '' \
      --appendonly no --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
    for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
  cat > "$dir/env" <<ENV
export DATABASE_URL=postgres://moon:moon@127.0.0.1:$pg_port/moon
export DATABASE_OWNER_URL=postgres://moon_owner:moon_owner@127.0.0.1:$pg_port/moon
export HISTORY_SIGNING_KEY=$(cat "$key_file")
export CELERY_BROKER_URL=redis://127.0.0.1:$redis_port/0
export REDIS_URL=redis://127.0.0.1:$redis_port/1
ENV
  cat "$dir/env"
}

# Drop the application's database (start makes it again, empty).
drop_database() {
  local bin
  bin=$(pg_bin)
  as_pg "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 -qc \
    "DROP DATABASE IF EXISTS moon WITH (FORCE)"
}

stop() {
  local bin
  bin=$(pg_bin)
  if [ -f "$pgdata/PG_VERSION" ]; then
    as_pg "$bin/pg_ctl" -D "$pgdata" -m fast stop >/dev/null 2>&1 || true
  fi
  redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
}

case "${1:-start}" in
  start) start ;;
  fresh) start >/dev/null; drop_database; start ;;
  stop) stop ;;
  stop-redis) redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true ;;
  *) echo "usage: $0 start|fresh|stop|stop-redis" >&2; exit 2 ;;
esac
