#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests and benchmarks, in a folder of its own, on a free
# port, as an unprivileged user (PostgreSQL refuses to run as root: as root, the cluster belongs to
# Debian's "postgres" user). No running service is assumed or touched.
#
#   scripts/pg-cluster.sh start DIR [setting=value ...]   prints the cluster's URL (database "postgres")
#   scripts/pg-cluster.sh restart DIR                     stops it (fast: connections are cut) and
#                                                         starts it again on the same port
#   scripts/pg-cluster.sh stop DIR                        stops it and removes DIR
#
# Settings are postgresql.conf lines, e.g. fsync=off for tests.
set -euo pipefail

command=${1:?usage: pg-cluster.sh start|restart|stop DIR}
dir=${2:?usage: pg-cluster.sh start|restart|stop DIR}
shift 2

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "pg-cluster: PostgreSQL server binaries not found (scripts/install-deps.sh)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U parley --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    {
      echo "listen_addresses = '127.0.0.1'"
      echo "port = $port"
      echo "unix_socket_directories = '$dir'"
      echo "max_connections = 1000"
      echo "shared_buffers = 128MB"
      for setting in "$@"; do echo "$setting"; done
    } | as_owner tee -a "$dir/data/postgresql.conf" >/dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://parley@127.0.0.1:$port/postgres"
    ;;
  restart)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: pg-cluster.sh start|restart|stop DIR" >&2
    exit 2
    ;;
esac
