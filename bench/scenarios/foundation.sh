#!/usr/bin/env bash
# Foundation: GET /api/v1/agents/{id} under wrk beside nginx answering the same bytes from memory,
# a 429 (rate-limited) answer's cost, and the server's idle memory. Server and nginx on CPU 0, wrk
# on CPU 1, 32 keep-alive connections. Writes bench/results/foundation.md.
set -euo pipefail
source bench/lib/common.sh
DURATION="${BENCH_DURATION:-10s}"
CONNS=32
out_md=bench/results/foundation.md

BENCH_DATA=$(mktemp -d "$BENCH_TMP/foundation-XXXXXX")
account=$(admin account create --name Bench --plan enterprise | json_field '["id"]')
agent=$(admin agent create --account "$account" --name "Bench agent" | json_field '["id"]')
key=$(admin key create --account "$account" --name bench | json_field '["key"]')
port=$(free_port)
start_parley "$BENCH_DATA" "$port" 0 --threads 1 --rate-limit-per-minute 1000000000
sleep 1
idle_rss=$(rss_kb "$PARLEY_PID")
url="http://127.0.0.1:$port/api/v1/agents/$agent"
body=$(curl -s -H "Authorization: Bearer $key" "$url")

# Warm up, then measure with CPU time from /proc.
wrk_run "$BENCH_TMP/warm.txt" -t1 -c$CONNS -d2s -H "Authorization: Bearer $key" "$url"
t0=$(cpu_ticks "$PARLEY_PID")
wrk_run "$BENCH_TMP/parley.txt" -t1 -c$CONNS -d"$DURATION" -H "Authorization: Bearer $key" "$url"
t1=$(cpu_ticks "$PARLEY_PID")
p_req=$(wrk_field "$BENCH_TMP/parley.txt" requests)
p_cpu_us=$(python3 -c "print('%.2f' % (($t1-$t0)/$(clk_tck)*1e6/$p_req))")
loaded_rss=$(rss_kb "$PARLEY_PID")
stop_pid "$PARLEY_PID"

# The same server with a limit of 1 a minute: every request after the first is a 429.
port429=$(free_port)
start_parley "$BENCH_DATA" "$port429" 0 --threads 1 --rate-limit-per-minute 1
url429="http://127.0.0.1:$port429/api/v1/agents/$agent"
wrk_run "$BENCH_TMP/warm.txt" -t1 -c$CONNS -d2s -H "Authorization: Bearer $key" "$url429"
t0=$(cpu_ticks "$PARLEY_PID")
wrk_run "$BENCH_TMP/parley429.txt" -t1 -c$CONNS -d"$DURATION" -H "Authorization: Bearer $key" "$url429"
t1=$(cpu_ticks "$PARLEY_PID")
r_req=$(wrk_field "$BENCH_TMP/parley429.txt" requests)
r_cpu_us=$(python3 -c "print('%.2f' % (($t1-$t0)/$(clk_tck)*1e6/$r_req))")
stop_pid "$PARLEY_PID"

# nginx, one worker, returning the same body from memory.
ngx_dir=$(mktemp -d "$BENCH_TMP/nginx-XXXXXX")
ngx_port=$(free_port)
escaped=$(printf '%s' "$body" | sed "s/'/\\\\'/g")
cat >"$ngx_dir/nginx.conf" <<NGX
worker_processes 1;
daemon off;
pid $ngx_dir/nginx.pid;
error_log $ngx_dir/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$ngx_port;
    location / { default_type application/json; return 200 '$escaped'; }
  }
}
NGX
taskset -c 0 nginx -c "$ngx_dir/nginx.conf" -p "$ngx_dir" &
ngx_master=$!
sleep 0.5
ngx_worker=$(pgrep -P "$ngx_master" | head -n1)
wrk_run "$BENCH_TMP/warm.txt" -t1 -c$CONNS -d2s "http://127.0.0.1:$ngx_port/"
t0=$(cpu_ticks "$ngx_worker")
wrk_run "$BENCH_TMP/nginx.txt" -t1 -c$CONNS -d"$DURATION" "http://127.0.0.1:$ngx_port/"
t1=$(cpu_ticks "$ngx_worker")
n_req=$(wrk_field "$BENCH_TMP/nginx.txt" requests)
n_cpu_us=$(python3 -c "print('%.2f' % (($t1-$t0)/$(clk_tck)*1e6/$n_req))")
kill "$ngx_master" 2>/dev/null; wait "$ngx_master" 2>/dev/null || true

p_rps=$(wrk_field "$BENCH_TMP/parley.txt" rps); n_rps=$(wrk_field "$BENCH_TMP/nginx.txt" rps)
r_rps=$(wrk_field "$BENCH_TMP/parley429.txt" rps)
ratio() { python3 -c "print('%.2f' % ($1/$2))"; }
cat >"$out_md" <<MD
# Foundation: GET /api/v1/agents/{id} against nginx

$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, server pinned to CPU 0, wrk to CPU 1, $CONNS keep-alive
connections, $DURATION per run, body of ${#body} bytes. CPU per request = the process's user+system
time over the run (from /proc) divided by the requests answered.

| run | req/s | p50 ms | p99 ms | CPU µs/request |
|---|---|---|---|---|
| nginx, 1 worker, \`return 200\` same bytes | $n_rps | $(wrk_field "$BENCH_TMP/nginx.txt" p50) | $(wrk_field "$BENCH_TMP/nginx.txt" p99) | $n_cpu_us |
| parley, 1 I/O thread, 200 | $p_rps | $(wrk_field "$BENCH_TMP/parley.txt" p50) | $(wrk_field "$BENCH_TMP/parley.txt" p99) | $p_cpu_us |
| parley, 429 rate_limited | $r_rps | $(wrk_field "$BENCH_TMP/parley429.txt" p50) | $(wrk_field "$BENCH_TMP/parley429.txt" p99) | $r_cpu_us |

| ratio | value | target |
|---|---|---|
| parley req/s ÷ nginx | $(ratio "$p_rps" "$n_rps") | ≥ 0.50 |
| parley CPU/request ÷ nginx | $(ratio "$p_cpu_us" "$n_cpu_us") | ≤ 2.0 |
| 429 CPU/request ÷ nginx | $(ratio "$r_cpu_us" "$n_cpu_us") | ≤ 1.3 |
| parley p99 | $(wrk_field "$BENCH_TMP/parley.txt" p99) ms | < 1.5 ms |

Memory: idle RSS $((idle_rss / 1024)) MB (target < 30 MB); after the run $((loaded_rss / 1024)) MB.
Non-2xx in the 200 run: $(wrk_field "$BENCH_TMP/parley.txt" non2xx).
MD
cat "$out_md"
rm -rf "$BENCH_DATA" "$ngx_dir"
