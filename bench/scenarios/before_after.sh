#!/usr/bin/env bash
# Before and after a change on a hot path: the same two measurements on two binaries, in
# alternating rounds on the same machine, medians reported. Set BEFORE_BINARY to the old build
# (for example a `git worktree` of the base commit, built); the new one is PARLEY_BINARY
# (build/parley). Without BEFORE_BINARY the scenario says so and does nothing.
#   1. GET /api/v1/agents/{id}: CPU per request and p99 (server on CPU 0 with one I/O thread, wrk on
#      CPU 1, 32 keep-alive connections).
#   2. A chat turn (JSON reply) on an agent whose settings use most features
#      (bench/data/rich_settings.json) and 200 trained text sources: p50, p99, replies/s and CPU
#      per reply (8 connections).
# Writes bench/results/before_after.md.
set -euo pipefail
source bench/lib/common.sh
if [ -z "${BEFORE_BINARY:-}" ]; then
  echo "before_after: set BEFORE_BINARY to the build to compare with; skipped"
  exit 0
fi
AFTER_BINARY="$PARLEY"
ROUNDS="${BENCH_ROUNDS:-3}"
SECONDS_EACH="${BENCH_SECONDS:-8}"
SOURCES="${BENCH_SOURCES:-200}"
out_md=bench/results/before_after.md
settings=$(cat bench/data/rich_settings.json)

# seed BINARY DIR: an account, the agent with rich settings and SOURCES trained text sources.
# Prints "agent key".
seed() {
  local bin=$1 dir=$2
  local account agent key port pid
  account=$(PARLEY_DATA_DIR="$dir" "$bin" admin account create --name Bench --plan enterprise | json_field '["id"]')
  PARLEY_DATA_DIR="$dir" "$bin" admin account set-limits "$account" \
    '{"messagesPerMonth": 1000000000, "trainingCharacters": 1000000000}' >/dev/null
  agent=$(PARLEY_DATA_DIR="$dir" "$bin" admin agent create --account "$account" --name Bench \
    --settings "$settings" | json_field '["id"]')
  key=$(PARLEY_DATA_DIR="$dir" "$bin" admin key create --account "$account" --name bench | json_field '["key"]')
  port=$(free_port)
  # Unlimited requests: 200 sources and the polling would otherwise meet the per-minute limit.
  PARLEY_DATA_DIR="$dir" PARLEY_RATE_LIMIT_PER_MINUTE=1000000000 "$bin" serve \
    --listen "127.0.0.1:$port" 2>"$dir/seed.log" &
  pid=$!
  for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
  local topics=(shipping returns refunds warranty payment invoices delivery tracking accounts jackets)
  for i in $(seq 1 "$SOURCES"); do
    local t=${topics[$((i % ${#topics[@]}))]}
    local status
    status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
      -d "{\"type\":\"text\",\"title\":\"$t guide $i\",\"content\":\"Our $t policy number $i applies to every order. Customers asking about $t get an answer within one day. Item $i of the catalogue has its own $t rules.\"}" \
      "http://127.0.0.1:$port/api/v1/agents/$agent/sources")
    if [ "$status" != 201 ]; then
      echo "before_after: adding source $i answered $status" >&2
      stop_pid "$pid"
      return 1
    fi
  done
  for _ in $(seq 1 600); do
    [ "$(curl -s -H "Authorization: Bearer $key" "http://127.0.0.1:$port/api/v1/agents/$agent/sources" |
         json_field '["training"]["done"]')" = "True" ] && break
    sleep 0.1
  done
  stop_pid "$pid"
  echo "$agent $key"
}

cat > "$BENCH_TMP/before_after_chat.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local questions = {"How do returns work?", "What does the blue jacket cost?", "Tell me about shipping",
                   "When do refunds arrive?", "Which size fits me?", "How does warranty work?"}
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, os.getenv("CHAT_PATH"), nil, '{"message":"' .. questions[(n % #questions) + 1] .. '"}')
end
LUA

# measure BINARY DIR AGENT KEY: prints "get_cpu_us|get_p99|chat_rps|chat_p50|chat_p99|chat_cpu_us"
measure() {
  local bin=$1 dir=$2 agent=$3 key=$4 port t0 t1 n
  port=$(free_port)
  PARLEY="$bin" PARLEY_AGENT_REPLIES_PER_HOUR=1000000000 \
    start_parley "$dir" "$port" 0 --threads 1 --rate-limit-per-minute 1000000000
  local url="http://127.0.0.1:$port/api/v1/agents/$agent"
  wrk_run "$BENCH_TMP/ba_warm.txt" -t1 -c32 -d2s -H "Authorization: Bearer $key" "$url"
  t0=$(cpu_ticks "$PARLEY_PID")
  wrk_run "$BENCH_TMP/ba_get.txt" -t1 -c32 -d"${SECONDS_EACH}s" -H "Authorization: Bearer $key" "$url"
  t1=$(cpu_ticks "$PARLEY_PID")
  n=$(wrk_field "$BENCH_TMP/ba_get.txt" requests)
  local get_cpu get_p99
  get_cpu=$(python3 -c "print('%.2f' % (($t1-$t0)/$(clk_tck)*1e6/$n))")
  get_p99=$(awk '$1=="99%" {print $2}' "$BENCH_TMP/ba_get.txt")
  CHAT_PATH="/api/v1/agents/$agent/chat" wrk_run "$BENCH_TMP/ba_warm.txt" -t1 -c8 -d2s \
    -H "Authorization: Bearer $key" -s "$BENCH_TMP/before_after_chat.lua" "http://127.0.0.1:$port"
  t0=$(cpu_ticks "$PARLEY_PID")
  CHAT_PATH="/api/v1/agents/$agent/chat" wrk_run "$BENCH_TMP/ba_chat.txt" -t1 -c8 -d"${SECONDS_EACH}s" --latency \
    -H "Authorization: Bearer $key" -s "$BENCH_TMP/before_after_chat.lua" "http://127.0.0.1:$port"
  t1=$(cpu_ticks "$PARLEY_PID")
  n=$(wrk_field "$BENCH_TMP/ba_chat.txt" requests)
  local non2xx
  non2xx=$(awk '/Non-2xx/ {print $5}' "$BENCH_TMP/ba_chat.txt")
  [ -z "$non2xx" ] || { echo "before_after: $non2xx non-2xx chat replies from $bin" >&2; exit 1; }
  local chat_rps chat_p50 chat_p99 chat_cpu
  chat_rps=$(awk '/Requests\/sec/ {print $2}' "$BENCH_TMP/ba_chat.txt")
  chat_p50=$(awk '$1=="50%" {print $2}' "$BENCH_TMP/ba_chat.txt")
  chat_p99=$(awk '$1=="99%" {print $2}' "$BENCH_TMP/ba_chat.txt")
  chat_cpu=$(python3 -c "print('%.1f' % (($t1-$t0)/$(clk_tck)*1e6/$n))")
  stop_pid "$PARLEY_PID"
  echo "$get_cpu|$get_p99|$chat_rps|$chat_p50|$chat_p99|$chat_cpu"
}

before_dir=$(mktemp -d "$BENCH_TMP/before-XXXXXX")
after_dir=$(mktemp -d "$BENCH_TMP/after-XXXXXX")
read -r before_agent before_key <<<"$(seed "$BEFORE_BINARY" "$before_dir")"
read -r after_agent after_key <<<"$(seed "$AFTER_BINARY" "$after_dir")"
[ -n "$before_key" ] && [ -n "$after_key" ] || { echo "before_after: seeding failed" >&2; exit 1; }

rows=""
before_rows=()
after_rows=()
for r in $(seq 1 "$ROUNDS"); do
  b=$(measure "$BEFORE_BINARY" "$before_dir" "$before_agent" "$before_key")
  a=$(measure "$AFTER_BINARY" "$after_dir" "$after_agent" "$after_key")
  before_rows+=("$b")
  after_rows+=("$a")
  rows+="| $r | before | ${b//|/ | } |"$'\n'
  rows+="| $r | after | ${a//|/ | } |"$'\n'
done
medians=$(python3 - "${before_rows[@]}" -- "${after_rows[@]}" <<'PY'
import re, statistics, sys
args = sys.argv[1:]
cut = args.index("--")
def ms(v):  # wrk latency to milliseconds
    m = re.match(r"([\d.]+)(us|ms|s)", v)
    return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)]
def med(rows):
    cols = list(zip(*[r.split("|") for r in rows]))
    return [statistics.median(float(c) for c in cols[0]), statistics.median(ms(c) for c in cols[1]),
            statistics.median(float(c) for c in cols[2]), statistics.median(ms(c) for c in cols[3]),
            statistics.median(ms(c) for c in cols[4]), statistics.median(float(c) for c in cols[5])]
b, a = med(args[:cut]), med(args[cut + 1:])
names = ["GET agent CPU µs/request", "GET agent p99 ms", "chat replies/s", "chat p50 ms", "chat p99 ms",
         "chat CPU µs/reply"]
for n, x, y in zip(names, b, a):
    print(f"| {n} | {x:.2f} | {y:.2f} | {y / x:.2f} |")
PY
)
{
  echo "# Before and after"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), 2 cores: server on CPU 0 (one I/O thread), wrk on CPU 1;"
  echo "$ROUNDS alternating rounds of ${SECONDS_EACH} s per measurement. Agent: bench/data/rich_settings.json"
  echo "and $SOURCES trained text sources; each chat turn stores its conversation (full durability)."
  echo "Before: \`$BEFORE_BINARY\`; after: \`$AFTER_BINARY\`."
  echo
  echo "| measure | before (median) | after (median) | after ÷ before |"
  echo "|---|---|---|---|"
  printf '%s\n' "$medians"
  echo
  echo "| round | binary | GET CPU µs | GET p99 | chat replies/s | chat p50 | chat p99 | chat CPU µs |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
} > "$out_md"
rm -rf "$before_dir" "$after_dir"
cat "$out_md"
