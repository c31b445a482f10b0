#!/usr/bin/env bash
# Widget: visitor messages through the widget gate (agent lookup, Origin against allowed domains,
# country, messages per visitor counted from stored messages) and the shared chat flow with a
# durable commit, a CORS preflight, and a refused origin. Server on CPU 0, wrk on CPU 1.
# Writes bench/results/widget.md. Bounded: about 30 seconds.
set -euo pipefail
source bench/lib/common.sh
DURATION="${BENCH_DURATION:-5s}"
CONNS=16
out_md=bench/results/widget.md

bench_data widget
account=$(admin account create --name Bench --plan enterprise | json_field '["id"]')
admin account set-limits "$account" '{"messagesPerMonth": 100000000}' >/dev/null
agent=$(admin agent create --account "$account" --name Shop \
  --settings '{"allowedDomains": ["example.com"], "blockedCountries": ["FR"], "messagesPerVisitor": 1000000}' |
  json_field '["id"]')
key=$(admin key create --account "$account" --name bench | json_field '["key"]')
port=$(free_port)
start_parley "$BENCH_DATA" "$port" 0 --threads 1 --country-header X-Country --agent-replies-per-hour 100000000 --rate-limit-per-minute 100000000 \
  --widget-requests-per-minute-per-address 100000000 --widget-messages-per-minute-per-address 100000000 \
  --agent-concurrent-replies 16 --account-concurrent-replies 16
base="http://127.0.0.1:$port"

# Every request is a new visitor starting a conversation (the count of a visitor's messages then
# reads one or two conversations, as for real visitors).
cat >"$BENCH_TMP/widget.lua" <<'LUA'
local n = 0
request = function()
  n = n + 1
  local visitor = "bench-" .. n .. "-" .. math.random(1, 1e9)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Origin"] = "https://shop.example.com"
  wrk.headers["X-Country"] = "DE"
  return wrk.format(nil, nil, nil,
    '{"message":"What are your opening hours?","visitorId":"' .. visitor .. '","page":"https://shop.example.com/"}')
end
LUA
run() {  # NAME ARGS...
  local name=$1; shift
  wrk_run "$BENCH_TMP/warm.txt" -t1 -c$CONNS -d1s "$@"
  local t0 t1 n
  t0=$(cpu_ticks "$PARLEY_PID")
  wrk_run "$BENCH_TMP/widget-$name.txt" -t1 -c$CONNS -d"$DURATION" "$@"
  t1=$(cpu_ticks "$PARLEY_PID")
  n=$(wrk_field "$BENCH_TMP/widget-$name.txt" requests)
  echo "| $(wrk_field "$BENCH_TMP/widget-$name.txt" rps) | $(wrk_field "$BENCH_TMP/widget-$name.txt" p50) | $(wrk_field "$BENCH_TMP/widget-$name.txt" p99) | $(python3 -c "print('%.1f' % (($t1-$t0)/$(clk_tck)*1e6/max($n,1)))") | $(wrk_field "$BENCH_TMP/widget-$name.txt" non2xx) |"
}
msg_row=$(run messages -s "$BENCH_TMP/widget.lua" "$base/widget/v1/agents/$agent/messages")
# The same message through the API (no widget rules), for comparison.
cat >"$BENCH_TMP/api.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"message":"What are your opening hours?"}'
LUA
api_row=$(run api -s "$BENCH_TMP/api.lua" -H "Authorization: Bearer $key" "$base/api/v1/agents/$agent/chat")
cat >"$BENCH_TMP/preflight.lua" <<'LUA'
wrk.method = "OPTIONS"
wrk.headers["Origin"] = "https://www.example.com"
wrk.headers["Access-Control-Request-Method"] = "POST"
LUA
pre_row=$(run preflight -s "$BENCH_TMP/preflight.lua" "$base/widget/v1/agents/$agent/messages")
cat >"$BENCH_TMP/refused.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Origin"] = "https://evil.example"
wrk.body = '{"message":"Hi","visitorId":"x"}'
LUA
refused_row=$(run refused -s "$BENCH_TMP/refused.lua" "$base/widget/v1/agents/$agent/messages")
stored=$(curl -s -H "Origin: https://shop.example.com" -H 'Content-Type: application/json' \
  -d '{"message":"count","visitorId":"final"}' "$base/widget/v1/agents/$agent/messages" >/dev/null;
  admin agent get "$agent" | json_field '["counts"]["messages"]')

cat >"$out_md" <<MD
# Widget: visitor messages, CORS preflight, refused origin

$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, server pinned to CPU 0 with 1 I/O thread, wrk on CPU 1,
$CONNS keep-alive connections (a new visitor per message), $DURATION per run. Agent with allowed domains,
blocked countries and messages per visitor set; retrieval engine with no sources (fallback reply);
durable commits (synchronous=FULL, group commit). Messages stored at the end: $stored.

| run | req/s | p50 ms | p99 ms | CPU µs/request | non-2xx |
|---|---|---|---|---|---|
| POST /widget/v1/agents/{id}/messages (new conversation each) $msg_row
| POST /api/v1/agents/{id}/chat, same server (comparison) $api_row
| OPTIONS preflight, allowed origin $pre_row
| POST messages, refused origin (403) $refused_row
MD
cat "$out_md"
