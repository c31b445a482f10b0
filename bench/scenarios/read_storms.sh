#!/usr/bin/env bash
# GET /api/v1/agents/{id} while writes storm (issue 30 §2): its rate and latency quiet, then while
# a contact-upsert storm runs (POST contacts, 32 connections) and while a chat storm runs (JSON
# chats on the retrieval engine to the same agent, 32 connections; every turn moves that agent's
# counters). The GET load is closed-loop (4 connections), so its rate says how much of the
# machine the reads still get. One node on SQLite (and on PostgreSQL with READ_STORMS_PG=1);
# writes bench/results/read_storms.md. Target: GET p99 < 2 ms and >= 80% of the quiet rate.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/common.sh
DURATION="${READ_STORMS_DURATION:-6s}"
OUT=bench/results/read_storms.md
TMP=$(mktemp -d "$BENCH_TMP/read-storms-XXXXXX")
pids=()
cluster=""
cleanup() {
  for p in "${pids[@]}"; do stop_pid "$p" || true; done
  [ -n "$cluster" ] && scripts/pg-cluster.sh stop "$cluster" || true
  rm -rf "$TMP"
}
trap cleanup EXIT

lua="$TMP/storm.lua"
cat >"$lua" <<'LUA'
local counter = 0
local function json_headers()
  local h = {}
  for k, v in pairs(wrk.headers) do h[k] = v end
  h["Content-Type"] = "application/json"
  return h
end
request = function()
  counter = counter + 1
  local kind = os.getenv("KIND")
  local prefix = "/api/v1/agents/" .. os.getenv("AGENT")
  if kind == "chat" then
    return wrk.format("POST", prefix .. "/chat", json_headers(), '{"message":"How do returns work?"}')
  elseif kind == "contact" then
    return wrk.format("POST", prefix .. "/contacts", json_headers(),
      '{"external_id":"' .. os.getenv("SEED") .. '-' .. counter .. '","name":"Storm"}')
  end
  return wrk.format("GET", prefix)
end
LUA

# server_p99 BEFORE AFTER: the upper bound (ms) of the bucket of the server's duration histogram
# of GET agent holding the 99th percentile of the requests between the two /metrics snapshots.
server_p99() {
  python3 - "$1" "$2" <<'PY'
import re, sys
def buckets(path):
    out = {}
    for line in open(path):
        m = re.match(r'parley_http_request_duration_seconds_bucket\{route="GET /api/v1/agents/\{agentId\}",le="([^"]+)"\} (\d+)', line)
        if m: out[m.group(1)] = int(m.group(2))
    return out
b0, b1 = buckets(sys.argv[1]), buckets(sys.argv[2])
delta = sorted((float("inf") if le == "+Inf" else float(le), b1[le] - b0.get(le, 0)) for le in b1)
total = delta[-1][1] if delta else 0
p99 = next((le for le, count in delta if total and count >= 0.99 * total), None)
print("—" if p99 is None else "%g" % (p99 * 1000))
PY
}

results=()
# agent_loads URL: how many times the agent row has been read from PostgreSQL (the agent cache's
# misses), from pg_stat_statements; "—" on SQLite.
agent_loads() {
  case "$1" in
    postgresql://*)
      psql -qAtX "$1" -c "SELECT COALESCE(SUM(calls), 0) FROM pg_stat_statements WHERE query LIKE 'SELECT id, account_id, name, private, settings%FROM agents WHERE id = \$1'" ;;
    *) echo "—" ;;
  esac
}
# per_thousand LOADS0 LOADS1 REQUESTS
per_thousand() {
  if [ "$1" = "—" ]; then echo "—"; else python3 -c "print('%.1f' % (1000 * ($2 - $1) / $3))"; fi
}

# run_backend NAME URL
run_backend() {
  local name=$1 url=$2 data="$TMP/$1"
  mkdir -p "$data"
  local account agent key port
  account=$(PARLEY_DATA_DIR="$data" PARLEY_DATABASE_URL="$url" "$PARLEY" admin account create --name Storm --plan enterprise | json_field '["id"]')
  agent=$(PARLEY_DATA_DIR="$data" PARLEY_DATABASE_URL="$url" "$PARLEY" admin agent create --account "$account" --name Storm | json_field '["id"]')
  key=$(PARLEY_DATA_DIR="$data" PARLEY_DATABASE_URL="$url" "$PARLEY" admin key create --account "$account" --name storm | json_field '["key"]')
  port=$(free_port)
  PARLEY_DATABASE_URL="$url" start_parley "$data" "$port" "" --rate-limit-per-minute 1000000000 \
    --agent-replies-per-hour 100000000
  pids+=("$PARLEY_PID")
  local base="http://127.0.0.1:$port"
  get() {
    curl -s "$base/metrics" >"$1.m0"
    KIND=get AGENT=$agent wrk_run "$1" -t1 -c4 -d"$DURATION" -s "$lua" -H "Authorization: Bearer $key" "$base"
    curl -s "$base/metrics" >"$1.m1"
  }
  storm() {
    SEED="s$RANDOM$RANDOM" KIND=$1 AGENT=$agent wrk --latency -t1 -c32 -d"$DURATION" -s "$lua" \
      -H "Authorization: Bearer $key" "$base" >"$2" 2>&1
  }
  get "$TMP/warm.txt"
  local l0 l1; l0=$(agent_loads "$url")
  get "$TMP/quiet.txt"
  l1=$(agent_loads "$url")
  local quiet; quiet=$(wrk_field "$TMP/quiet.txt" rps)
  results+=("$name: quiet|$quiet|$(wrk_field "$TMP/quiet.txt" p50)|$(wrk_field "$TMP/quiet.txt" p99)|≤ $(server_p99 "$TMP/quiet.txt.m0" "$TMP/quiet.txt.m1")|100%|—|$(per_thousand "$l0" "$l1" "$(wrk_field "$TMP/quiet.txt" requests)")")
  for kind in contact chat; do
    storm "$kind" "$TMP/storm-$kind.txt" &
    local storm_pid=$!
    sleep 0.5
    l0=$(agent_loads "$url")
    get "$TMP/get-$kind.txt"
    l1=$(agent_loads "$url")
    wait "$storm_pid"
    local rps share
    rps=$(wrk_field "$TMP/get-$kind.txt" rps)
    share=$(python3 -c "print('%.0f%%' % (100 * $rps / $quiet))")
    results+=("$name: during a $kind storm|$rps|$(wrk_field "$TMP/get-$kind.txt" p50)|$(wrk_field "$TMP/get-$kind.txt" p99)|≤ $(server_p99 "$TMP/get-$kind.txt.m0" "$TMP/get-$kind.txt.m1")|$share|$(wrk_field "$TMP/storm-$kind.txt" rps)|$(per_thousand "$l0" "$l1" "$(wrk_field "$TMP/get-$kind.txt" requests)")")
  done
  stop_pid "$PARLEY_PID"
}

run_backend SQLite "sqlite:$TMP/SQLite/parley.db"
if [ "${READ_STORMS_PG:-0}" = 1 ]; then
  cluster=$(mktemp -d /tmp/parley-bench-storm-pg-XXXXXX)
  cluster_url=$(scripts/pg-cluster.sh start "$cluster" shared_preload_libraries=pg_stat_statements)
  psql -qAtX "$cluster_url" -c "CREATE DATABASE storms" >/dev/null
  psql -qAtX "${cluster_url%/postgres}/storms" -c "CREATE EXTENSION pg_stat_statements" >/dev/null
  run_backend PostgreSQL "${cluster_url%/postgres}/storms"
fi

{
  echo "# GET agent during write storms"
  echo
  echo "GET /api/v1/agents/{id}, 4 connections closed-loop for $DURATION, quiet and while 32 other"
  echo "connections upsert contacts or chat (JSON, retrieval engine) with the same agent; one node,"
  echo "wrk on CPU 1, the server unpinned. The machine is shared (other builds ran meanwhile):"
  echo "rates are comparable only within one run. \`$(git rev-parse --short HEAD)\`, $(date -u +%Y-%m-%d)."
  echo
  echo "| case | GET agent requests/s | p50 ms | p99 ms | p99 in the server, ms | of the quiet rate | storm requests/s | agent reads from the database per 1,000 GETs |"
  echo "|---|---|---|---|---|---|---|---|"
  for r in "${results[@]}"; do echo "| ${r//|/ | } |"; done
} >"$OUT"
cat "$OUT"
