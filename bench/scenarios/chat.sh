#!/usr/bin/env bash
# Chat with the retrieval engine: replies per second and latency (p50/p99) for JSON and streamed
# replies on an agent with 1,000 trained text sources (plus 50 Q&A pairs), and time to first
# streamed byte. Starts its own server on a free loopback port with a temporary data dir, writes
# bench/results/chat.md, and stops what it started. Bounded to about a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
OUT=bench/results/chat.md
DURATION="${CHAT_BENCH_SECONDS:-8}"
SOURCES="${CHAT_BENCH_SOURCES:-1000}"
TMP="$(mktemp -d /tmp/parley-bench-chat-XXXXXX)"
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
admin account set-limits "$account" '{"messagesPerMonth": 1000000000, "trainingCharacters": 1000000000}' >/dev/null
agent=$(admin agent create --account "$account" --name Bench --settings '{"showSources": true, "followUps": true}' | jq -r .id)
key=$(admin key create --account "$account" --name bench | jq -r .key)

start_server() {  # $1 = durability (full | normal)
  : > "$TMP/server.log"
  PARLEY_DURABILITY="$1" PARLEY_RATE_LIMIT_PER_MINUTE=1000000000 PARLEY_AGENT_REPLIES_PER_HOUR=1000000000 \
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
}
stop_server() { kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }
start_server full
auth="Authorization: Bearer $key"

# Knowledge: text sources and Q&A pairs through the API (when the sources endpoint exists).
topics=(shipping returns refunds warranty payment invoices delivery tracking accounts passwords
        subscriptions discounts gift-cards stores opening-hours repairs batteries chargers screens cables)
loaded=0
probe=$(curl -s -o /dev/null -w '%{http_code}' -H "$auth" "$base/api/v1/agents/$agent/sources")
if [ "$probe" = "200" ]; then
  for i in $(seq 1 "$SOURCES"); do
    t=${topics[$((i % ${#topics[@]}))]}
    body=$(printf '{"type":"text","title":"%s guide %d","content":"Our %s policy number %d applies to every order. Customers asking about %s get an answer within one day. The %s team works from Monday to Friday. Item %d of the catalogue has its own %s rules, listed on the order page."}' \
      "$t" "$i" "$t" "$i" "$t" "$t" "$i" "$t")
    curl -s -o /dev/null -H "$auth" -H 'Content-Type: application/json' -d "$body" "$base/api/v1/agents/$agent/sources"
  done
  for i in $(seq 1 50); do
    t=${topics[$((i % ${#topics[@]}))]}
    curl -s -o /dev/null -H "$auth" -H 'Content-Type: application/json' \
      -d "{\"type\":\"qa\",\"question\":\"How does $t work for order $i?\",\"answer\":\"For order $i, $t is handled by our team within a day.\"}" \
      "$base/api/v1/agents/$agent/sources"
  done
  for _ in $(seq 1 600); do
    done_flag=$(curl -s -H "$auth" "$base/api/v1/agents/$agent/sources" | jq -r '.training.done')
    [ "$done_flag" = "true" ] && break
    sleep 0.1
  done
  loaded=$SOURCES
fi

cat > "$TMP/chat.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $key"
local questions = {"How do returns work?", "What is your shipping policy?", "Do you repair screens?",
                   "How does warranty work for order 7?", "Tell me about gift-cards", "When is the payment team working?"}
local n = 0
request = function()
  n = n + 1
  local q = questions[(n % #questions) + 1]
  return wrk.format(nil, "/api/v1/agents/$agent/chat", nil, '{"message":"' .. q .. '"' .. os.getenv("CHAT_EXTRA") .. '}')
end
LUA

run_wrk() {  # $1 = extra JSON fields
  CHAT_EXTRA="$1" taskset -c 1 wrk -t1 -c8 -d"${DURATION}s" --latency -s "$TMP/chat.lua" "$base" > "$TMP/wrk.txt" 2>&1
  rps=$(awk '/Requests\/sec/ {print $2}' "$TMP/wrk.txt")
  p50=$(awk '$1=="50%" {print $2}' "$TMP/wrk.txt")
  p99=$(awk '$1=="99%" {print $2}' "$TMP/wrk.txt")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$TMP/wrk.txt")
  echo "$rps|$p50|$p99|${non2xx:-0}"
}
ttfb() {  # time to first streamed byte, one request at a time: "p50|p99" in ms
  : > "$TMP/ttfb.txt"
  for _ in $(seq 1 200); do
    curl -s -o /dev/null -w '%{time_starttransfer}\n' -H "$auth" -H 'Content-Type: application/json' \
      -d '{"message":"How do returns work?","stream":true}' "$base/api/v1/agents/$agent/chat" >> "$TMP/ttfb.txt"
  done
  sort -n "$TMP/ttfb.txt" | awk '{a[NR]=$1} END {printf "%.2f ms|%.2f ms", a[int(NR*0.5)]*1000, a[int(NR*0.99)]*1000}'
}
rows=""
for durability in full normal; do
  if [ "$durability" = normal ]; then stop_server; start_server normal; fi
  IFS='|' read -r j_rps j_p50 j_p99 j_err <<<"$(run_wrk "")"
  IFS='|' read -r s_rps s_p50 s_p99 s_err <<<"$(run_wrk ',"stream":true')"
  IFS='|' read -r t_p50 t_p99 <<<"$(ttfb)"
  rows+="| $durability | JSON | $j_rps | $j_p50 | $j_p99 | $j_err | |"$'\n'
  rows+="| $durability | streamed | $s_rps | $s_p50 | $s_p99 | $s_err | p50 $t_p50, p99 $t_p99 |"$'\n'
done
sample=$(curl -s -H "$auth" -H 'Content-Type: application/json' -d '{"message":"How do returns work?"}' \
  "$base/api/v1/agents/$agent/chat" | jq -c '{reply, sources}')

{
  echo "# Chat benchmark (retrieval engine)"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ); server pinned to core 0, wrk (1 thread, 8 connections, ${DURATION} s)"
  echo "pinned to core 1 (2-core machine shared with other work). SQLite with group commit; each"
  echo "request starts a conversation and stores 2 messages, the agent counters and 3 usage counters."
  echo "Agent knowledge: $loaded text sources + $([ "$loaded" -gt 0 ] && echo 50 || echo 0) Q&A pairs;"
  echo "showSources and followUps on. Time to first byte: 200 sequential streamed requests."
  echo
  echo "| durability | mode | replies/s | p50 | p99 | non-2xx | time to first byte |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  echo "Sample reply: \`$sample\`"
} > "$OUT"
cat "$OUT"
