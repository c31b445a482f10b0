#!/usr/bin/env bash
# Soak: SOAK_DURATION (default 10 minutes) at saturation with a mixed load, every request of its
# own kind in turn: GET an agent, a chat message (JSON reply from knowledge), a contact upsert,
# a conversation list page, a widget visitor message. Server on CPU 0 with its default settings
# (but for the per-key, per-agent-hour and per-address rates, raised: the whole load comes from one
# address and one key), wrk on
# CPU 1. Passes when no answer is a 5xx and RSS and open descriptors end where they started (within
# a margin). Writes bench/results/soak.md.
set -euo pipefail
source bench/lib/common.sh
DURATION="${SOAK_DURATION:-600s}"
CONNS=32
out_md=bench/results/soak.md

bench_data soak
account=$(admin account create --name Soak --plan enterprise | json_field '["id"]')
admin account set-limits "$account" '{"messagesPerMonth": 1000000000}' >/dev/null
agent=$(admin agent create --account "$account" --name Shop \
  --settings '{"allowedDomains": ["example.com"], "messagesPerVisitor": 1000000000}' | json_field '["id"]')
key=$(admin key create --account "$account" --name soak | json_field '["key"]')
for i in $(seq 1 40); do
  admin source add --agent "$agent" --type text --title "Topic $i" \
    --content "Topic $i: our shop opens at $((i % 12 + 1)) o'clock on weekday $i. Returns for item group $i are free within $((i + 10)) days. Delivery zone $i is served by courier $((i * 7))." >/dev/null
done
admin source add --agent "$agent" --type qa --question "What are your opening hours?" \
  --answer "We are open from 9 to 5, Monday to Friday." >/dev/null
port=$(free_port)
start_parley "$BENCH_DATA" "$port" 0 --rate-limit-per-minute 1000000000 \
  --agent-replies-per-hour 1000000000 --widget-requests-per-minute-per-address 1000000000 \
  --widget-messages-per-minute-per-address 1000000000 --widget-visitors-per-address 1000000
base="http://127.0.0.1:$port"
sleep 2  # training of the sources above

cat >"$BENCH_TMP/soak.lua" <<LUA
local agent, key = "$agent", "$key"
local n = 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) s2, s4, s429, s5, other = 0, 0, 0, 0, 0 end
local auth = {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}
local widget = {["Content-Type"] = "application/json", ["Origin"] = "https://shop.example.com"}
function request()
  n = n + 1
  local kind = n % 5
  if kind == 0 then
    return wrk.format("GET", "/api/v1/agents/" .. agent, auth)
  elseif kind == 1 then
    return wrk.format("POST", "/api/v1/agents/" .. agent .. "/chat", auth,
      '{"message":"When are returns for item group ' .. (n % 40 + 1) .. ' free?"}')
  elseif kind == 2 then
    local c = n % 2000
    return wrk.format("POST", "/api/v1/agents/" .. agent .. "/contacts", auth,
      '{"external_id":"soak-' .. c .. '","email":"soak' .. c .. '@example.com","name":"Visitor ' .. n .. '"}')
  elseif kind == 3 then
    return wrk.format("GET", "/api/v1/agents/" .. agent .. "/conversations?limit=20", auth)
  else
    return wrk.format("POST", "/widget/v1/agents/" .. agent .. "/messages", widget,
      '{"message":"What are your opening hours?","visitorId":"soak-' .. (n % 5000) .. '"}')
  end
end
function response(status, headers, body)
  if status >= 500 then s5 = s5 + 1 elseif status == 429 then s429 = s429 + 1 elseif status >= 400 then s4 = s4 + 1 elseif status >= 200 then s2 = s2 + 1 else other = other + 1 end
end
function done(summary, latency, requests)
  local t2, t4, t429, t5 = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    t2 = t2 + t:get("s2"); t4 = t4 + t:get("s4"); t429 = t429 + t:get("s429"); t5 = t5 + t:get("s5")
  end
  io.write(string.format("STATUS 2xx=%d 429=%d other4xx=%d 5xx=%d\n", t2, t429, t4, t5))
end
LUA

fds() { ls "/proc/$1/fd" | wc -l; }
wrk_run "$BENCH_TMP/soak-warm.txt" -t1 -c$CONNS -d"${SOAK_WARMUP:-60s}" -s "$BENCH_TMP/soak.lua" "$base"
rss0=$(rss_kb "$PARLEY_PID"); fd0=$(fds "$PARLEY_PID")
samples="$BENCH_TMP/soak-samples.txt"
: >"$samples"
( while kill -0 "$PARLEY_PID" 2>/dev/null; do
    echo "$(date +%s) $(rss_kb "$PARLEY_PID") $(fds "$PARLEY_PID")" >>"$samples"; sleep 15
  done ) &
sampler=$!
t0=$(cpu_ticks "$PARLEY_PID")
wrk_run "$BENCH_TMP/soak.txt" -t1 -c$CONNS -d"$DURATION" --timeout 10s -s "$BENCH_TMP/soak.lua" "$base"
t1=$(cpu_ticks "$PARLEY_PID")
kill "$sampler" 2>/dev/null || true
sleep 1
rss1=$(rss_kb "$PARLEY_PID"); fd1=$(fds "$PARLEY_PID")
status_line=$(grep '^STATUS' "$BENCH_TMP/soak.txt" || echo "STATUS 2xx=? 4xx=? 5xx=?")
n5=$(sed -E 's/.*5xx=([0-9?]+).*/\1/' <<<"$status_line")
req=$(wrk_field "$BENCH_TMP/soak.txt" requests)
errors=$(grep -E 'Socket errors' "$BENCH_TMP/soak.txt" || echo "Socket errors: none")
rss_growth=$(python3 -c "print('%.1f' % (($rss1-$rss0)/1024))")
verdict=$(python3 -c "
ok = '$n5' == '0' and ($rss1 - $rss0) < 0.2 * $rss0 + 8192 and $fd1 <= $fd0 + 4
print('pass' if ok else 'FAIL')")
cat >"$out_md" <<MD
# Soak: mixed load at saturation for $DURATION

$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, server on CPU 0 with default settings (rates raised),
wrk on CPU 1 with $CONNS keep-alive connections. Each connection cycles: GET agent, chat (JSON),
contact upsert (2,000 distinct contacts), conversation list page, widget message.

| figure | value |
|---|---|
| requests | $req ($(wrk_field "$BENCH_TMP/soak.txt" rps) req/s) |
| answers | $(sed 's/^STATUS //' <<<"$status_line") |
| latency p50 / p99 | $(wrk_field "$BENCH_TMP/soak.txt" p50) ms / $(wrk_field "$BENCH_TMP/soak.txt" p99) ms |
| CPU per request | $(python3 -c "print('%.1f' % (($t1-$t0)/$(clk_tck)*1e6/max($req,1)))") µs |
| RSS start → end | $((rss0 / 1024)) MB → $((rss1 / 1024)) MB ($rss_growth MB) |
| open descriptors start → end | $fd0 → $fd1 |
| socket errors | ${errors#Socket errors: } |
| verdict (0 5xx, RSS within 20% + 8 MB, descriptors within 4) | $verdict |

Samples every 15 s (seconds, RSS kB, descriptors):

\`\`\`
$(cat "$samples")
\`\`\`
MD
cat "$out_md"
[ "$verdict" = pass ]
