#!/usr/bin/env bash
# Two builds side by side on PostgreSQL, at the same moment: each serves its own database of one
# throwaway cluster (scripts/pg-cluster.sh, durable defaults) under its own wrk, so that whatever
# slows this machine slows both alike. Prints, per round, each build's requests a second, CPU per
# request (Parley's, and its database's backends', by pg_stat_activity's database) and Parley's
# context switches per request (every thread's, from /proc).
#
#   bench/tools/pg_pair.sh BUILD_A BUILD_B [ROUNDS]
#
# KIND=chat (default) or write (contact upserts), as bench/scenarios/postgresql.sh; DURATION
# (8s); AGENTS (16) per build; CONNECTIONS (16) per build; SQL_A and SQL_B, statements run on
# that side's database once it is set up (to try a schema change with one build). Swap A and B in
# a second run: the two sides are not quite alike (the order they start in).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/common.sh
[ $# -ge 2 ] || { sed -n '2,11p' "$0"; exit 2; }
A=$(realpath "$1"); B=$(realpath "$2"); ROUNDS=${3:-3}
KIND=${KIND:-chat}; DURATION=${DURATION:-8s}; AGENTS=${AGENTS:-16}; CONNECTIONS=${CONNECTIONS:-16}
cluster=$(mktemp -d /tmp/parley-pair-XXXXXX)
work=$(mktemp -d "$BENCH_TMP/pair-XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do stop_pid "$p" || true; done
  scripts/pg-cluster.sh stop "$cluster" >/dev/null 2>&1 || true
}
trap 'cleanup; rm -rf "$work"' EXIT
url=$(scripts/pg-cluster.sh start "$cluster")
lua="$work/pair.lua"
sed -n "/^cat >\"\$lua\" <<'LUA'/,/^LUA/p" bench/scenarios/postgresql.sh | sed '1d;$d' >"$lua"
# The CPU ticks of the backends connected to database $1.
db_ticks() {
  local total=0
  for p in $(psql -qAtX "$url" -c "SELECT pid FROM pg_stat_activity WHERE datname = '$1'"); do
    [ -r "/proc/$p/stat" ] && total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$total"
}
per_request() { python3 -c "print(round(($2 - $1) / $3 * 1e6 / $4))"; }
# The context switches of every thread of process $1 (each a wake-up or a preemption).
# A thread that ends meanwhile is left out (and makes cat fail, which must not end the script).
switches() { { cat /proc/"$1"/task/*/status 2>/dev/null || true; } | awk '/ctxt_switches/ {s += $2} END {print s + 0}'; }
n=0
for round in $(seq 1 "$ROUNDS"); do
  declare -A port pid agents key db
  for side in A B; do
    bin=${!side}
    n=$((n + 1))
    db[$side]="pair$n"
    psql -qAtX "$url" -c "CREATE DATABASE ${db[$side]}" >/dev/null
    dburl="${url%/postgres}/${db[$side]}"
    data="$work/$n"
    mkdir -p "$data"
    account=$(PARLEY_DATA_DIR=$data PARLEY_DATABASE_URL=$dburl "$bin" admin account create --name Pair --plan enterprise | json_field '["id"]')
    list=""
    for _ in $(seq 1 "$AGENTS"); do
      list+="$(PARLEY_DATA_DIR=$data PARLEY_DATABASE_URL=$dburl "$bin" admin agent create --account "$account" --name Pair | json_field '["id"]'),"
    done
    agents[$side]=${list%,}
    key[$side]=$(PARLEY_DATA_DIR=$data PARLEY_DATABASE_URL=$dburl "$bin" admin key create --account "$account" --name pair | json_field '["key"]')
    sql_var="SQL_$side"
    [ -z "${!sql_var:-}" ] || psql -qAtX "$dburl" -c "${!sql_var}" >/dev/null
    port[$side]=$(free_port)
    PARLEY_DATABASE_URL=$dburl PARLEY_DATA_DIR=$data "$bin" serve --listen "127.0.0.1:${port[$side]}" \
      --rate-limit-per-minute 1000000000 --agent-replies-per-hour 100000000 --threads 1 2>"$data/server.log" &
    pid[$side]=$!
    pids+=("${pid[$side]}")
    for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:${port[$side]}/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
  done
  load() {  # load SECONDS OUT_PREFIX: both sides at once
    local running=()
    for side in A B; do
      SEED="$side$RANDOM" KIND=$KIND AGENTS=${agents[$side]} wrk --latency -t1 -c"$CONNECTIONS" -d"$1" -s "$lua" \
        -H "Authorization: Bearer ${key[$side]}" "http://127.0.0.1:${port[$side]}" >"$2$side.txt" 2>&1 &
      running+=($!)
    done
    wait "${running[@]}"
  }
  load 1s "$work/warm"
  declare -A p0 s0 x0
  for side in A B; do
    p0[$side]=$(db_ticks "${db[$side]}"); s0[$side]=$(cpu_ticks "${pid[$side]}"); x0[$side]=$(switches "${pid[$side]}")
  done
  load "$DURATION" "$work/run"
  tck=$(clk_tck)
  line="round $round ($KIND):"
  for side in A B; do
    reqs=$(wrk_field "$work/run$side.txt" requests)
    line+=" $side $(wrk_field "$work/run$side.txt" rps) r/s, Parley $(per_request "${s0[$side]}" "$(cpu_ticks "${pid[$side]}")" "$tck" "$reqs") µs,"
    line+=" PostgreSQL $(per_request "${p0[$side]}" "$(db_ticks "${db[$side]}")" "$tck" "$reqs") µs per request,"
    line+=" $(python3 -c "print('%.1f' % (($(switches "${pid[$side]}") - ${x0[$side]}) / $reqs))") Parley context switches per request;"
  done
  echo "$line"
  for side in A B; do stop_pid "${pid[$side]}"; done
  pids=()
done
