#!/usr/bin/env bash
# CPU per chat turn on the chat bench's workload (bench/scenarios/chat.sh: an agent with 1,000
# text sources and 50 Q&A pairs, showSources and followUps on, the same six questions, JSON
# replies), counted two ways that a machine shared with other work does not skew:
#   - instructions per turn: the server runs under callgrind with instrumentation off while it
#     starts and trains, then on for CHAT_CPU_TURNS sequential turns; the total and the heaviest
#     functions (inclusive) per turn;
#   - CPU time per turn: the server's user+system time (/proc/PID/stat) across CHAT_CPU_TURNS
#     sequential turns without callgrind.
# CHAT_CPU_SETTINGS adds settings to the agent (e.g. buttons, a lead form, booking) to measure a
# turn with every intent configured. Writes bench/results/chat_cpu.md (or CHAT_CPU_OUT).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/common.sh
OUT="${CHAT_CPU_OUT:-bench/results/chat_cpu.md}"
TURNS="${CHAT_CPU_TURNS:-300}"
SOURCES="${CHAT_BENCH_SOURCES:-1000}"
SETTINGS='{"showSources": true, "followUps": true}'
if [ -n "${CHAT_CPU_SETTINGS:-}" ]; then SETTINGS=$CHAT_CPU_SETTINGS; fi
TMP="$(mktemp -d /tmp/parley-bench-chatcpu-XXXXXX)"
BENCH_DATA="$TMP/data"
mkdir -p "$BENCH_DATA"
PARLEY_PID=""
cleanup() {
  if [ -n "$PARLEY_PID" ]; then stop_pid "$PARLEY_PID"; fi
  if [ -n "${CHAT_CPU_KEEP:-}" ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

account=$(admin account create --name Bench --plan enterprise | jq -r .id)
admin account set-limits "$account" '{"messagesPerMonth": 1000000000, "trainingCharacters": 1000000000}' >/dev/null
agent=$(admin agent create --account "$account" --name Bench --settings "$SETTINGS" | jq -r .id)
key=$(admin key create --account "$account" --name bench | jq -r .key)
auth="Authorization: Bearer $key"
export PARLEY_RATE_LIMIT_PER_MINUTE=1000000000 PARLEY_AGENT_REPLIES_PER_HOUR=1000000000

wait_trained() {
  for _ in $(seq 1 3000); do
    [ "$(curl -s -H "$auth" "$base/api/v1/agents/$agent/sources?limit=1" | jq -r '.training.done')" = "true" ] && return 0
    sleep 0.2
  done
  echo "training did not finish" >&2
  return 1
}

# The knowledge, as chat.sh loads it.
port=$(free_port)
start_parley "$BENCH_DATA" "$port"
base="http://127.0.0.1:$port"
topics=(shipping returns refunds warranty payment invoices delivery tracking accounts passwords
        subscriptions discounts gift-cards stores opening-hours repairs batteries chargers screens cables)
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
wait_trained

questions=("How do returns work?" "What is your shipping policy?" "Do you repair screens?"
           "How does warranty work for order 7?" "Tell me about gift-cards" "When is the payment team working?")
turns() {  # $1 = how many sequential JSON turns
  for i in $(seq 1 "$1"); do
    q=${questions[$((i % ${#questions[@]}))]}
    curl -s -o /dev/null -w '%{http_code}\n' -H "$auth" -H 'Content-Type: application/json' \
      -d "{\"message\":\"$q\"}" "$base/api/v1/agents/$agent/chat"
  done | grep -vc '^200$' || true
}

# CPU time per turn, without callgrind (after a warm-up).
turns 200 >/dev/null  # every pool thread has opened its database connection
ticks0=$(cpu_ticks "$PARLEY_PID")
failed=$(turns "$TURNS")
ticks1=$(cpu_ticks "$PARLEY_PID")
cpu_us=$(python3 -c "print(round(($ticks1 - $ticks0) * 1e6 / $(clk_tck) / $TURNS))")
stop_pid "$PARLEY_PID"
PARLEY_PID=""

# Instructions per turn under callgrind: the same data folder, trained again as the server starts.
port=$(free_port)
base="http://127.0.0.1:$port"
PARLEY_DATA_DIR="$BENCH_DATA" valgrind --tool=callgrind --instr-atstart=no \
  --callgrind-out-file="$TMP/callgrind.out" "$PARLEY" serve --listen "127.0.0.1:$port" \
  2>"$TMP/callgrind.log" &
PARLEY_PID=$!
for _ in $(seq 1 1200); do
  curl -sf "$base/healthz" >/dev/null 2>&1 && break
  sleep 0.25
done
wait_trained
turns 200 >/dev/null
callgrind_control -i on "$PARLEY_PID" >/dev/null
cg_failed=$(turns "$TURNS")
callgrind_control -d "$PARLEY_PID" >/dev/null
callgrind_control -i off "$PARLEY_PID" >/dev/null
stop_pid "$PARLEY_PID"
PARLEY_PID=""
# The dump taken right after the turns (callgrind.out.1): only what ran while they did.
dump=$(ls "$TMP"/callgrind.out.* 2>/dev/null | head -1)
callgrind_annotate --inclusive=yes "${dump:-$TMP/callgrind.out}" 2>/dev/null > "$TMP/annotate.txt"
total=$(awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}' "$TMP/annotate.txt")
per_turn=$(python3 -c "print(round($total / $TURNS))")
# The heaviest Parley functions, inclusive, per turn.
top=$(grep -E '^ *[0-9,]+ .*parley::' "$TMP/annotate.txt" | head -60 | python3 -c "
import re, sys
for line in sys.stdin:
    m = re.match(r'\s*([\d,]+)\s+\([^)]*\)\s+(.*)', line)
    if not m: continue
    ir = int(m.group(1).replace(',', '')) / $TURNS
    name = re.sub(r'\s*\[[^\]]*\]$', '', m.group(2)).strip()
    name = re.sub(r'^(\?\?\?|\S*\.(cpp|h|hpp|tcc|c|S)):', '', name)
    name = re.sub(r'\(.*', '', name)  # the argument lists say little here
    if len(name) > 100: name = name[:97] + '...'
    print(f'| {ir/1000:,.0f} k | \`{name}\` |')
")

{
  echo "# Chat: CPU per turn (retrieval engine, JSON)"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ). The chat bench's agent ($SOURCES text sources, 50 Q&A pairs,"
  echo "settings \`$SETTINGS\`), SQLite, $TURNS sequential JSON turns over the"
  echo "bench's six questions. Written by \`bench/scenarios/chat_cpu.sh\`."
  echo
  echo "| figure | value |"
  echo "|---|---|"
  echo "| instructions per turn (callgrind, whole server) | $(python3 -c "print(f'{$per_turn:,}')") |"
  echo "| server CPU time per turn (user+system, no callgrind) | ${cpu_us} µs |"
  echo "| turns not answered 200 | $failed (callgrind run: $cg_failed) |"
  echo
  echo "Heaviest Parley functions, inclusive instructions per turn:"
  echo
  echo "| Ir per turn | function |"
  echo "|---|---|"
  printf '%s\n' "$top"
} > "$OUT"
cat "$OUT"
