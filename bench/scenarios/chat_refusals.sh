#!/usr/bin/env bash
# Chat: what refusals cost next to a reply. Requests per second and
# latency (p50/p99) for a valid chat, a 400 (wrong type), a 403 (private agent), a 404 (unknown
# conversation) and a continued conversation with 400 stored messages (the engine reads the last
# 40). Starts its own server on a free loopback port with a temporary data dir, writes
# bench/results/chat_refusals.md, and stops what it started. Bounded to well under a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
OUT=bench/results/chat_refusals.md
DURATION="${REVIEW2_BENCH_SECONDS:-4}"
TMP="$(mktemp -d /tmp/parley-bench-chat-refusals-XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p bench/results

export PARLEY_DATA_DIR="$TMP/data"
admin() { "$BIN" admin "$@"; }
account=$(admin account create --name Bench --plan enterprise | jq -r .id)
admin account set-limits "$account" '{"messagesPerMonth": 1000000000}' >/dev/null
agent=$(admin agent create --account "$account" --name Bench | jq -r .id)
private=$(admin agent create --account "$account" --name Inner --private | jq -r .id)
key=$(admin key create --account "$account" --name bench | jq -r .key)

PARLEY_RATE_LIMIT_PER_MINUTE=1000000000 PARLEY_AGENT_REPLIES_PER_HOUR=1000000000 \
  taskset -c 0 "$BIN" serve --listen 127.0.0.1:0 2>"$TMP/server.log" &
SERVER_PID=$!
port=""
for _ in $(seq 1 300); do
  port=$(grep -o '"msg":"listening","address":"[^"]*:[0-9]*"' "$TMP/server.log" | grep -o '[0-9]*"$' | tr -d '"' || true)
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "$port" ] || { echo "server did not start"; cat "$TMP/server.log"; exit 1; }
base="http://127.0.0.1:$port"
auth="Authorization: Bearer $key"

# One long conversation: 200 exchanges = 400 stored messages.
long=$(curl -s -H "$auth" -H 'Content-Type: application/json' -d '{"message":"start"}' \
  "$base/api/v1/agents/$agent/chat" | jq -r .conversationId)
for i in $(seq 2 200); do
  curl -s -o /dev/null -H "$auth" -H 'Content-Type: application/json' \
    -d "{\"message\":\"message $i\",\"conversationId\":\"$long\"}" "$base/api/v1/agents/$agent/chat"
done

run_case() {  # $1 = agent, $2 = body
  cat > "$TMP/case.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $key"
wrk.path = "/api/v1/agents/$1/chat"
wrk.body = '$2'
LUA
  taskset -c 1 wrk -t1 -c8 -d"${DURATION}s" --latency -s "$TMP/case.lua" "$base" > "$TMP/wrk.txt" 2>&1
  rps=$(awk '/Requests\/sec/ {print $2}' "$TMP/wrk.txt")
  p50=$(awk '$1=="50%" {print $2}' "$TMP/wrk.txt")
  p99=$(awk '$1=="99%" {print $2}' "$TMP/wrk.txt")
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "$auth" -H 'Content-Type: application/json' \
    -d "$2" "$base/api/v1/agents/$1/chat")
  echo "$status|$rps|$p50|$p99"
}
rows=""
add_row() {  # $1 = label, $2 = agent, $3 = body
  IFS='|' read -r st rps p50 p99 <<<"$(run_case "$2" "$3")"
  rows+="| $1 | $st | $rps | $p50 | $p99 |"$'\n'
}
add_row "new conversation" "$agent" '{"message":"Hello there"}'
add_row "400 message of the wrong type" "$agent" '{"message":42}'
add_row "403 private agent" "$private" '{"message":"Hello there"}'
add_row "404 unknown conversation" "$agent" '{"message":"Hello","conversationId":"cnv_doesnotexist"}'
add_row "continue a 400-message conversation" "$agent" "{\"message\":\"More\",\"conversationId\":\"$long\"}"

{
  echo "# Chat refusals benchmark"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ); server pinned to core 0, wrk (1 thread, 8 connections, ${DURATION} s"
  echo "per row) pinned to core 1 (2-core machine shared with other work). SQLite, durability full."
  echo "Refusals are answered before the engine runs and write nothing; replies commit a"
  echo "transaction each (group commit). The continued conversation grows during its row."
  echo
  echo "| request | status | requests/s | p50 | p99 |"
  echo "|---|---|---|---|---|"
  printf '%s' "$rows"
} > "$OUT"
cat "$OUT"
