#!/usr/bin/env bash
# Defaults on one CPU: GET /api/v1/agents/{id} with parley's default settings (no --threads) and
# nginx with its default settings (Debian's stock nginx.conf shape: worker_processes auto, default
# keep-alive limits), both started under `taskset -c 0` as under a container CPU limit; wrk on CPU 1,
# 32 keep-alive connections. Targets: parley ≥ 80% of nginx's requests per second, p99 ≤ 1.5 ms,
# CPU per request ≤ 1.3× nginx's. Writes bench/results/defaults.md.
set -euo pipefail
source bench/lib/common.sh
DURATION="${BENCH_DURATION:-10s}"
CONNS=32
out_md=bench/results/defaults.md

BENCH_DATA=$(mktemp -d "$BENCH_TMP/defaults-XXXXXX")
ngx_dir=$(mktemp -d "$BENCH_TMP/nginx-XXXXXX")
cleanup() {
  [ -n "${PARLEY_PID:-}" ] && stop_pid "$PARLEY_PID"
  [ -n "${ngx_master:-}" ] && { kill "$ngx_master" 2>/dev/null; wait "$ngx_master" 2>/dev/null || true; }
  rm -rf "$BENCH_DATA" "$ngx_dir"
}
trap cleanup EXIT
account=$(admin account create --name Bench --plan enterprise | json_field '["id"]')
agent=$(admin agent create --account "$account" --name "Bench agent" | json_field '["id"]')
key=$(admin key create --account "$account" --name bench | json_field '["key"]')
ROUNDS="${BENCH_ROUNDS:-3}"
# total CPU ticks of a process and its children (nginx's master and workers)
tree_ticks() { local t=0; for p in "$@"; do t=$((t + $(cpu_ticks "$p"))); done; echo "$t"; }
measure() {  # NAME URL PIDS... : runs wrk, prints "rps p50 p99 cpu_us non2xx"
  local name=$1 target=$2; shift 2
  wrk_run "$BENCH_TMP/warm.txt" -t1 -c$CONNS -d2s "${auth[@]}" "$target"
  local t0 t1 n f="$BENCH_TMP/defaults-$name.txt"
  t0=$(tree_ticks "$@")
  wrk_run "$f" -t1 -c$CONNS -d"$DURATION" "${auth[@]}" "$target"
  t1=$(tree_ticks "$@")
  n=$(wrk_field "$f" requests)
  echo "$(wrk_field "$f" rps) $(wrk_field "$f" p50) $(wrk_field "$f" p99) $(python3 -c "print('%.2f' % (($t1-$t0)/$(clk_tck)*1e6/$n))") $(wrk_field "$f" non2xx)"
}
port=$(free_port)
ngx_port=$(free_port)
url="http://127.0.0.1:$port/api/v1/agents/$agent"
rounds="$BENCH_TMP/defaults-rounds.txt"
: >"$rounds"
# Rounds alternate the two servers, so that whatever else the machine does falls on both.
for round in $(seq 1 "$ROUNDS"); do
  start_parley "$BENCH_DATA" "$port" 0 --rate-limit-per-minute 1000000000
  if [ -z "${body:-}" ]; then
    body=$(curl -s -H "Authorization: Bearer $key" "$url")
    threads=$(grep -o '"ioThreads":[0-9]*' "$BENCH_DATA/server.log" | head -n1 | cut -d: -f2 || true)
    escaped=$(printf '%s' "$body" | sed "s/'/\\\\'/g")
    cat >"$ngx_dir/nginx.conf" <<NGX
worker_processes auto;
daemon off;
pid $ngx_dir/nginx.pid;
error_log $ngx_dir/error.log;
events { worker_connections 768; }
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path $ngx_dir/body;
  proxy_temp_path $ngx_dir/proxy;
  fastcgi_temp_path $ngx_dir/fastcgi;
  uwsgi_temp_path $ngx_dir/uwsgi;
  scgi_temp_path $ngx_dir/scgi;
  server {
    listen 127.0.0.1:$ngx_port;
    location / { default_type application/json; return 200 '$escaped'; }
  }
}
NGX
  fi
  auth=(-H "Authorization: Bearer $key")
  echo "parley $(measure parley "$url" "$PARLEY_PID")" >>"$rounds"
  stop_pid "$PARLEY_PID"; PARLEY_PID=
  taskset -c 0 nginx -c "$ngx_dir/nginx.conf" -p "$ngx_dir" &
  ngx_master=$!
  sleep 0.5
  ngx_pids=("$ngx_master" $(pgrep -P "$ngx_master"))
  auth=()
  echo "nginx $(measure nginx "http://127.0.0.1:$ngx_port/" "${ngx_pids[@]}")" >>"$rounds"
  ngx_workers=$((${#ngx_pids[@]} - 1))
  kill "$ngx_master" 2>/dev/null; wait "$ngx_master" 2>/dev/null || true; ngx_master=
done
median() {  # SERVER COLUMN(2..6)
  awk -v s="$1" -v c="$2" '$1 == s {print $c}' "$rounds" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
p_rps=$(median parley 2); p_p50=$(median parley 3); p_p99=$(median parley 4); p_cpu=$(median parley 5)
n_rps=$(median nginx 2); n_p50=$(median nginx 3); n_p99=$(median nginx 4); n_cpu=$(median nginx 5)
p_non2xx=$(awk '$1 == "parley" {t += $6} END {print t}' "$rounds")

ratio() { python3 -c "print('%.2f' % ($1/$2))"; }
rps_ratio=$(ratio "$p_rps" "$n_rps"); cpu_ratio=$(ratio "$p_cpu" "$n_cpu")
verdict=$(python3 -c "print('pass' if $rps_ratio >= 0.8 and $p_p99 <= 1.5 and $cpu_ratio <= 1.3 else 'FAIL')")
cat >"$out_md" <<MD
# Defaults on one CPU: GET /api/v1/agents/{id} against nginx, both with default settings

$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores; parley and nginx each started under \`taskset -c 0\`
with their default settings (parley chose ${threads:-?} I/O thread(s); nginx \`worker_processes auto\`
started $ngx_workers worker(s), default keep-alive limits); wrk on CPU 1, $CONNS keep-alive connections,
$ROUNDS rounds of $DURATION per server, the servers taking turns; each figure is the median of the
rounds. Body of ${#body} bytes. CPU per request: user+system time of every process of the server
over the run, divided by the requests answered.

| server | req/s | p50 ms | p99 ms | CPU µs/request |
|---|---|---|---|---|
| nginx (defaults) | $n_rps | $n_p50 | $n_p99 | $n_cpu |
| parley (defaults) | $p_rps | $p_p50 | $p_p99 | $p_cpu |

| target | value | bound |
|---|---|---|
| parley req/s ÷ nginx | $rps_ratio | ≥ 0.80 |
| parley p99 | $p_p99 ms | ≤ 1.5 ms |
| parley CPU/request ÷ nginx | $cpu_ratio | ≤ 1.3 |
| verdict | $verdict | |

Non-2xx from parley: $p_non2xx. Every round (server, req/s, p50, p99, CPU µs/request, non-2xx):

\`\`\`
$(cat "$rounds")
\`\`\`
MD
cat "$out_md"
