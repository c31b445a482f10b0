#!/usr/bin/env bash
# PostgreSQL beside SQLite: GET /api/v1/agents/{id} (CPU per request of parley and of the
# database server), chat (JSON, retrieval engine) and single-row writes (POST contacts), on SQLite
# and on PostgreSQL with 1 and 2 nodes, and what the cluster-wide rate limit costs per request.
# PostgreSQL runs in a throwaway cluster (scripts/pg-cluster.sh) at its durable defaults
# (fsync on, synchronous_commit on). wrk on CPU 1; servers and database share the machine.
# Writes bench/results/postgresql.md and .json.
set -euo pipefail
source bench/lib/common.sh
DURATION="${PG_BENCH_DURATION:-8s}"
out_md=bench/results/postgresql.md
out_json=bench/results/postgresql.json

cluster=$(mktemp -d /tmp/parley-bench-pg-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do stop_pid "$p" || true; done
  scripts/pg-cluster.sh stop "$cluster" || true
}
trap cleanup EXIT
cluster_url=$(scripts/pg-cluster.sh start "$cluster")
psql -qAtX "$cluster_url" -c "CREATE DATABASE bench" >/dev/null
pg_url="${cluster_url%/postgres}/bench"
postmaster=$(head -1 "$cluster/data/postmaster.pid")

# The CPU ticks of every process of the cluster.
pg_ticks() {
  local total=0
  for p in $(pgrep -P "$postmaster") "$postmaster"; do
    [ -r "/proc/$p/stat" ] && total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$total"
}

sqlite_dir=$(mktemp -d "$BENCH_TMP/pg-sqlite-XXXXXX")
# Each backend gets the same account, AGENTS agents (requests spread over them: writes of one
# agent queue on its row, see docs/decisions/postgresql.md) and a key.
AGENTS=${PG_BENCH_AGENTS:-16}
setup() {
  local account key agents=""
  account=$(PARLEY_DATA_DIR="$sqlite_dir" PARLEY_DATABASE_URL="$1" "$PARLEY" admin account create --name Bench --plan enterprise | json_field '["id"]')
  for _ in $(seq 1 "$AGENTS"); do
    agents+="$(PARLEY_DATA_DIR="$sqlite_dir" PARLEY_DATABASE_URL="$1" "$PARLEY" admin agent create --account "$account" --name Bench | json_field '["id"]'),"
  done
  key=$(PARLEY_DATA_DIR="$sqlite_dir" PARLEY_DATABASE_URL="$1" "$PARLEY" admin key create --account "$account" --name bench | json_field '["key"]')
  echo "${agents%,} $key"
}

# start_node URL PORT: a node on the database at URL.
start_node() {
  PARLEY_DATABASE_URL="$1" PARLEY_DATA_DIR="$sqlite_dir" "$PARLEY" serve --listen "127.0.0.1:$2" \
    --rate-limit-per-minute "${RATE_LIMIT:-1000000000}" --agent-replies-per-hour 100000000 --threads 1 2>>"$sqlite_dir/server-$2.log" &
  pids+=($!)
  for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$2/healthz" >/dev/null 2>&1 && return 0; sleep 0.05; done
  cat "$sqlite_dir/server-$2.log" >&2
  return 1
}

lua="$BENCH_TMP/pg-bench.lua"
cat >"$lua" <<'LUA'
-- GET the agent, chat (KIND=chat) or create a contact (KIND=write).
local counter = 0
-- wrk.format replaces wrk.headers (the -H Authorization) when given headers: copy them.
local function json_headers()
  local h = {}
  for k, v in pairs(wrk.headers) do h[k] = v end
  h["Content-Type"] = "application/json"
  return h
end
local agents = {}
for id in string.gmatch(os.getenv("AGENTS"), "[^,]+") do agents[#agents + 1] = id end
request = function()
  counter = counter + 1
  local kind = os.getenv("KIND")
  local prefix = "/api/v1/agents/" .. agents[counter % #agents + 1]
  if kind == "chat" then
    local qs = {"How do returns work?", "When are you open?", "Do you ship abroad?", "What does it cost?"}
    return wrk.format("POST", prefix .. "/chat", json_headers(),
      '{"message":"' .. qs[counter % #qs + 1] .. '"}')
  elseif kind == "write" then
    return wrk.format("POST", prefix .. "/contacts", json_headers(),
      '{"external_id":"' .. os.getenv("SEED") .. '-' .. counter .. '","name":"Bench"}')
  end
  return wrk.format("GET", prefix)
end
LUA

results=()
# measure LABEL BACKEND_URL NODES KIND: wrk against the nodes (one wrk per node, connections
# split), CPU per request of parley and of PostgreSQL.
measure() {
  local label=$1 url=$2 nodes=$3 kind=$4
  local conns=$((32 / nodes)) t0 p0 t1 p1 reqs=0 rps=0 p99=0
  local -a ports=() node_pids=()
  for _ in $(seq 1 "$nodes"); do
    local port; port=$(free_port)
    start_node "$url" "$port"
    ports+=("$port"); node_pids+=("${pids[-1]}")
  done
  local -a loads=()
  for port in "${ports[@]}"; do
    SEED="w$port$RANDOM$RANDOM" KIND=$kind AGENTS=$agents wrk_run "$BENCH_TMP/warm-$port.txt" -t1 -c"$conns" -d1s -s "$lua" \
      -H "Authorization: Bearer $key" "http://127.0.0.1:$port" &
    loads+=($!)
  done
  wait "${loads[@]}"
  loads=()
  t0=0; for p in "${node_pids[@]}"; do t0=$((t0 + $(cpu_ticks "$p"))); done
  p0=$(pg_ticks)
  for port in "${ports[@]}"; do
    SEED="r$port$RANDOM$RANDOM" KIND=$kind AGENTS=$agents wrk_run "$BENCH_TMP/run-$port.txt" -t1 -c"$conns" -d"$DURATION" -s "$lua" \
      -H "Authorization: Bearer $key" "http://127.0.0.1:$port" &
    loads+=($!)
  done
  wait "${loads[@]}"
  t1=0; for p in "${node_pids[@]}"; do t1=$((t1 + $(cpu_ticks "$p"))); done
  p1=$(pg_ticks)
  for port in "${ports[@]}"; do
    reqs=$((reqs + $(wrk_field "$BENCH_TMP/run-$port.txt" requests)))
    rps=$(python3 -c "print(round($rps + $(wrk_field "$BENCH_TMP/run-$port.txt" rps), 2))")
    p99=$(python3 -c "print(max($p99, $(wrk_field "$BENCH_TMP/run-$port.txt" p99)))")
    non2xx=$(wrk_field "$BENCH_TMP/run-$port.txt" non2xx)
    [ "$non2xx" = "0" ] || [ -n "${RATE_LIMIT:-}" ] || echo "warning: $label: $non2xx answers were not 2xx" >&2
  done
  for p in "${node_pids[@]}"; do stop_pid "$p" || true; done
  local tck; tck=$(clk_tck)
  local parley_us pg_us
  parley_us=$(python3 -c "print('%.1f' % (($t1 - $t0) / $tck * 1e6 / $reqs))")
  pg_us=$(python3 -c "print('%.1f' % (($p1 - $p0) / $tck * 1e6 / $reqs))")
  [ "$url" = "sqlite:$sqlite_dir/parley.db" ] && pg_us="—"
  results+=("$label|$rps|$p99|$parley_us|$pg_us")
  echo "$label: $rps r/s, p99 $p99 ms, parley $parley_us µs/request, postgres $pg_us µs/request"
}

run_backend() {
  local name=$1 url=$2
  read -r agents key < <(setup "$url")
  measure "$name, 1 node: GET agent" "$url" 1 get
  # Past a small limit every request is counted by its own statement (and answered 429): what
  # the cluster-wide limit costs a request without allowances.
  [ "$name" = "PostgreSQL" ] && RATE_LIMIT=200 measure "$name, 1 node: GET agent past a 200/minute limit (429)" "$url" 1 get
  [ "$name" = "PostgreSQL" ] && measure "$name, 2 nodes: GET agent" "$url" 2 get
  measure "$name, 1 node: chat (JSON)" "$url" 1 chat
  [ "$name" = "PostgreSQL" ] && measure "$name, 2 nodes: chat (JSON)" "$url" 2 chat
  measure "$name, 1 node: POST contact (one-row write)" "$url" 1 write
  [ "$name" = "PostgreSQL" ] && measure "$name, 2 nodes: POST contact (one-row write)" "$url" 2 write
  return 0
}

run_backend SQLite "sqlite:$sqlite_dir/parley.db"
run_backend PostgreSQL "$pg_url"

# What one count of the cluster-wide rate limit costs: the statement alone, as parley runs it,
# timed by pgbench on one connection.
rate_sql="$BENCH_TMP/rate.sql"
cat >"$rate_sql" <<'SQL'
INSERT INTO shared_windows (name, window_start, count, taken) VALUES ('rate.bench', 0, 1, 1) ON CONFLICT (name) DO UPDATE SET count = CASE WHEN excluded.window_start > shared_windows.window_start THEN excluded.count WHEN shared_windows.count + excluded.count <= 9000000000000 THEN shared_windows.count + excluded.count WHEN shared_windows.count < 9000000000000 THEN 9000000000000 ELSE shared_windows.count END, taken = CASE WHEN excluded.window_start > shared_windows.window_start THEN excluded.count WHEN shared_windows.count + excluded.count <= 9000000000000 THEN shared_windows.count + excluded.count WHEN shared_windows.count < 9000000000000 THEN 9000000000000 ELSE shared_windows.count END - CASE WHEN excluded.window_start > shared_windows.window_start THEN 0 ELSE shared_windows.count END, window_start = CASE WHEN excluded.window_start > shared_windows.window_start THEN excluded.window_start ELSE shared_windows.window_start END RETURNING count, taken;
SQL
rate_line=$(PGOPTIONS='-c synchronous_commit=off' /usr/lib/postgresql/*/bin/pgbench -n -M prepared -c 1 -T 5 -f "$rate_sql" "$pg_url" 2>/dev/null | grep -E "latency average" || true)

# What PostgreSQL alone commits on this machine at its durable defaults, with no HTTP server in
# the picture: pgbench's TPC-B-like transaction (5 statements between BEGIN and END) and its
# simple update (3), 16 clients.
pgbench_bin=$(ls /usr/lib/postgresql/*/bin/pgbench | tail -1)
psql -qAtX "$cluster_url" -c "CREATE DATABASE pgbench" >/dev/null
pgbench_url="${cluster_url%/postgres}/pgbench"
"$pgbench_bin" -i -q -s 4 "$pgbench_url" >/dev/null 2>&1
tpcb_tps=$("$pgbench_bin" -n -M prepared -c 16 -j 2 -T 6 "$pgbench_url" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
simple_tps=$("$pgbench_bin" -n -M prepared -c 16 -j 2 -T 6 -N "$pgbench_url" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p')

{
  echo "# PostgreSQL beside SQLite"
  echo
  echo "One account with $AGENTS agents and a key per backend, requests spread over the agents; wrk with 32
connections split over the nodes for $DURATION;"
  echo "each node with 1 I/O thread; PostgreSQL 15 in a throwaway cluster on the same 2 cores at its durable"
  echo "defaults (fsync on, synchronous_commit on). CPU per request: parley's processes, and the"
  echo "database server's (every PostgreSQL process)."
  echo
  echo "| case | requests/s | p99 ms | parley CPU µs/request | PostgreSQL CPU µs/request |"
  echo "|---|---|---|---|---|"
  for r in "${results[@]}"; do echo "| ${r//|/ | } |"; done
  echo
  echo "The cluster-wide rate limit counts in the database with one statement on the node's reading"
  echo "connection (autocommit, synchronous_commit off); alone, from pgbench on one connection:"
  echo "${rate_line:-not measured}. Near a key's limit every request is counted by its own statement"
  echo "(the \"past a 200/minute limit\" row); far from it, a busy key spends allowances taken in blocks"
  echo "(domain/shared_rate_counter.h), so GET agent does not touch the database."
  echo
  echo "PostgreSQL alone on this machine (pgbench, 16 clients, durable defaults): TPC-B-like"
  echo "transactions ${tpcb_tps:-?} a second, simple updates ${simple_tps:-?} a second."
} >"$out_md"
python3 - "$out_json" "${results[@]}" <<'PY'
import json, sys
rows = []
for r in sys.argv[2:]:
    label, rps, p99, parley_us, pg_us = r.split("|")
    rows.append({"case": label, "rps": float(rps), "p99_ms": float(p99), "parley_cpu_us": float(parley_us),
                 "postgres_cpu_us": None if pg_us == "—" else float(pg_us)})
json.dump(rows, open(sys.argv[1], "w"), indent=2)
PY
cat "$out_md"
rm -rf "$sqlite_dir"
