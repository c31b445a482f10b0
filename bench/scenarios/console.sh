#!/usr/bin/env bash
# Console: login cost (Argon2id dominates by design), authenticated console reads under wrk (token
# fingerprint + one primary-key read per request), and the cost of a refused (throttled) login.
# Server on CPU 0, wrk on CPU 1. Writes bench/results/console.md. Bounded: about 30 seconds.
set -euo pipefail
source bench/lib/common.sh
DURATION="${BENCH_DURATION:-5s}"
CONNS=16
out_md=bench/results/console.md
PASSWORD="bench password 1"

bench_data console
account=$(admin account create --name Bench --plan enterprise | json_field '["id"]')
for i in 1 2 3; do admin agent create --account "$account" --name "Agent $i" >/dev/null; done
for i in 1 2 3 4 5; do admin key create --account "$account" --name "key $i" >/dev/null; done
token=$(PARLEY_MEMBER_PASSWORD="$PASSWORD" admin member create --account "$account" --email owner@bench.example \
  --role owner --name Owner | json_field '["token"]')
admin member create --account "$account" --email victim@bench.example --role viewer >/dev/null
port=$(free_port)
start_parley "$BENCH_DATA" "$port" 0 --threads 1 --console-login-failures-per-address 1000000
base="http://127.0.0.1:$port"

# Login: 20 sequential successful logins, time per request as curl sees it.
login_times=()
for _ in $(seq 1 20); do
  login_times+=("$(curl -s -o /dev/null -w '%{time_total}' -H 'Content-Type: application/json' \
    -d "{\"email\":\"owner@bench.example\",\"password\":\"$PASSWORD\"}" "$base/console/v1/login")")
done
login_stats=$(printf '%s\n' "${login_times[@]}" | python3 -c "
import sys, statistics
v = sorted(float(x) * 1000 for x in sys.stdin)
print('%.1f %.1f %.1f' % (statistics.median(v), statistics.mean(v), v[-1]))")
read -r login_p50 login_mean login_max <<<"$login_stats"

run_get() {  # NAME PATH
  wrk_run "$BENCH_TMP/warm.txt" -t1 -c$CONNS -d1s -H "Authorization: Bearer $token" "$base$2"
  local t0 t1 n
  t0=$(cpu_ticks "$PARLEY_PID")
  wrk_run "$BENCH_TMP/console-$1.txt" -t1 -c$CONNS -d"$DURATION" -H "Authorization: Bearer $token" "$base$2"
  t1=$(cpu_ticks "$PARLEY_PID")
  n=$(wrk_field "$BENCH_TMP/console-$1.txt" requests)
  echo "| GET $2 | $(wrk_field "$BENCH_TMP/console-$1.txt" rps) | $(wrk_field "$BENCH_TMP/console-$1.txt" p50) | $(wrk_field "$BENCH_TMP/console-$1.txt" p99) | $(python3 -c "print('%.1f' % (($t1-$t0)/$(clk_tck)*1e6/$n))") | $(wrk_field "$BENCH_TMP/console-$1.txt" non2xx) |"
}
rows=$(run_get keys /console/v1/keys; run_get agents /console/v1/agents; run_get me /console/v1/me)

# Refused logins: the victim's email is blocked after 5 failures; then every attempt is a 429
# answered before any password work.
for _ in 1 2 3 4 5; do
  curl -s -o /dev/null -H 'Content-Type: application/json' \
    -d '{"email":"victim@bench.example","password":"wrong password"}' "$base/console/v1/login"
done
cat >"$BENCH_TMP/login.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"victim@bench.example","password":"wrong password"}'
LUA
wrk_run "$BENCH_TMP/console-429.txt" -t1 -c$CONNS -d"$DURATION" -s "$BENCH_TMP/login.lua" "$base/console/v1/login"
refused_status=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
  -d '{"email":"victim@bench.example","password":"wrong password"}' "$base/console/v1/login")

cat >"$out_md" <<MD
# Console: login, authenticated reads, refused logins

$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, server pinned to CPU 0 with 1 I/O thread, wrk on CPU 1,
$CONNS keep-alive connections, $DURATION per run. Account with 3 agents and 5 keys.

Login (Argon2id m=19 MiB, t=2, p=1, plus one session insert with a durable commit), 20 sequential:
median $login_p50 ms, mean $login_mean ms, max $login_max ms.

| run | req/s | p50 ms | p99 ms | CPU µs/request | non-2xx |
|---|---|---|---|---|---|
$rows
| POST /console/v1/login, email blocked (429) | $(wrk_field "$BENCH_TMP/console-429.txt" rps) | $(wrk_field "$BENCH_TMP/console-429.txt" p50) | $(wrk_field "$BENCH_TMP/console-429.txt" p99) | – | $(wrk_field "$BENCH_TMP/console-429.txt" non2xx) (all $refused_status) |
MD
cat "$out_md"
