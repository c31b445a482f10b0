#!/usr/bin/env bash
# Live replies per node: thousands of chats waiting on a slow LLM provider at once. The provider
# is nginx on loopback (echo module, HTTPS with HTTP/2 and a self-signed certificate that Parley
# trusts through --llm-ca-file) answering every completion after 2 s with a short SSE stream. 8 `openai` agents of one account; half of
# each storm's chats are streamed, half JSON. For 200, 1,000, 2,000 and 10,000 concurrent chats
# (bench/tools chat_storm, each chat on its own connection) it reports how many were answered,
# p50/p99, replies per second, the server's peak RSS and threads, RSS growth per reply in flight,
# and GET /api/v1/agents/{id} latency measured during the storm. Writes
# bench/results/live_replies.md and .json. Targets: at 2,000 all answered and p99 <= 3 s; at
# 10,000 all answered and p99 <= 5 s; RSS growth <= 32 KB per reply in flight; GET agent p99 < 2 ms.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
STORM="$(dirname "$BIN")/chat_storm"
OUT=bench/results/live_replies
LEVELS="${LIVE_REPLIES_LEVELS:-200 1000 2000 10000}"
ECHO_MODULE=/usr/lib/nginx/modules/ngx_http_echo_module.so
[ -f "$ECHO_MODULE" ] || { echo "live_replies: nginx's echo module is missing (libnginx-mod-http-echo)"; exit 1; }
[ -x "$STORM" ] || { echo "live_replies: $STORM is missing (make build)"; exit 1; }
TMP="$(mktemp -d /tmp/parley-bench-live-XXXXXX)"
chmod 755 "$TMP"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  [ -f "$TMP/nginx.pid" ] && kill "$(cat "$TMP/nginx.pid")" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p bench/results
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# The provider: every completion waits 2 s, then streams three SSE events. Over TLS, so that the
# replies in flight multiplex over a few HTTP/2 connections as they do with hosted providers.
LLM_PORT=$(free_port)
mkdir -p "$TMP/ngx"
chmod 777 "$TMP/ngx"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$TMP/ngx/key.pem" -out "$TMP/ngx/cert.pem" 2>/dev/null
chmod 644 "$TMP/ngx/key.pem"
cat >"$TMP/nginx.conf" <<NGINX
load_module $ECHO_MODULE;
worker_processes 1;
error_log $TMP/ngx/error.log warn;
pid $TMP/nginx.pid;
worker_rlimit_nofile 20000;
events { worker_connections 16000; }
http {
  access_log off;
  client_body_temp_path $TMP/ngx/body;
  client_body_buffer_size 256k;
  http2_max_concurrent_streams 256;
  keepalive_requests 10000000;
  server {
    listen 127.0.0.1:$LLM_PORT ssl http2;
    ssl_certificate $TMP/ngx/cert.pem;
    ssl_certificate_key $TMP/ngx/key.pem;
    location /v1/chat/completions {
      default_type text/event-stream;
      echo_read_request_body;
      echo_sleep 2;
      echo 'data: {"choices":[{"index":0,"delta":{"content":"We are open"}}]}';
      echo '';
      echo 'data: {"choices":[{"index":0,"delta":{"content":" from 9 to 5 [1]."}}]}';
      echo '';
      echo 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}';
      echo '';
      echo 'data: [DONE]';
      echo '';
    }
  }
}
NGINX
nginx -c "$TMP/nginx.conf" -p "$TMP/ngx" -e "$TMP/ngx/error.log"

export PARLEY_DATA_DIR="$TMP/data"
admin() { "$BIN" admin "$@"; }
account=$(admin account create --name Bench --plan enterprise | jq -r .id)
admin account set-limits "$account" '{"messagesPerMonth": 1000000000}' >/dev/null
agents=()
for i in 1 2 3 4 5 6 7 8; do
  agents+=("$(admin agent create --account "$account" --name "Agent $i" --settings '{"engine":"openai"}' | jq -r .id)")
done
key=$(admin key create --account "$account" --name bench | jq -r .key)
agent_list=$(IFS=,; echo "${agents[*]}")

PORT=$(free_port)
PARLEY_RATE_LIMIT_PER_MINUTE=1000000000 PARLEY_AGENT_REPLIES_PER_HOUR=1000000000 \
  "$BIN" serve --listen "127.0.0.1:$PORT" --llm-base-url "https://127.0.0.1:$LLM_PORT" \
  --llm-model bench --llm-ca-file "$TMP/ngx/cert.pem" ${LIVE_REPLIES_SERVER_ARGS:-} 2>"$TMP/server.log" &
SERVER_PID=$!
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
# One chat first, so that the connection to the provider and the caches are warm.
curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/agents/${agents[0]}/chat" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d '{"message":"hello"}' >/dev/null

status_kb() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }
results=()
# A first storm warms what is made once (threads' database connections and arenas, connections
# to the provider), so that the RSS growth below is what replies in flight cost.
"$STORM" --host 127.0.0.1 --port "$PORT" --key "$key" --agents "$agent_list" --concurrency 500 >/dev/null
for n in $LEVELS; do
  sleep 1
  rss_before=$(status_kb "$SERVER_PID" VmRSS)
  curl -s "http://127.0.0.1:$PORT/metrics" >"$TMP/metrics.before"
  "$STORM" --host 127.0.0.1 --port "$PORT" --key "$key" --agents "$agent_list" --concurrency "$n" --stream-every 2 \
    --timeout-s 90 --probe-agent "${agents[0]}" --probe-interval-ms 20 >"$TMP/storm.json" &
  storm=$!
  peak_rss=$rss_before
  peak_threads=0
  while kill -0 "$storm" 2>/dev/null; do
    rss=$(status_kb "$SERVER_PID" VmRSS)
    threads=$(status_kb "$SERVER_PID" Threads)
    [ "$rss" -gt "$peak_rss" ] && peak_rss=$rss
    [ "$threads" -gt "$peak_threads" ] && peak_threads=$threads
    sleep 0.05
  done
  wait "$storm" || true
  curl -s "http://127.0.0.1:$PORT/metrics" >"$TMP/metrics.after"
  results+=("$(python3 - "$TMP/storm.json" "$n" "$rss_before" "$peak_rss" "$peak_threads" "$TMP/metrics.before" "$TMP/metrics.after" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
n, before, peak, threads = (int(x) for x in sys.argv[2:6])
# The server's own view of GET agent during the storm: its duration histogram (from the request's
# parse to its response written), as the upper bound of the bucket holding the 99th percentile.
def buckets(path):
    out = {}
    for line in open(path):
        m = re.match(r'parley_http_request_duration_seconds_bucket\{route="GET /api/v1/agents/\{agentId\}",le="([^"]+)"\} (\d+)', line)
        if m: out[m.group(1)] = int(m.group(2))
    return out
b0, b1 = buckets(sys.argv[6]), buckets(sys.argv[7])
delta = [(float("inf") if le == "+Inf" else float(le), b1[le] - b0.get(le, 0)) for le in b1]
delta.sort()
total = delta[-1][1] if delta else 0
server_p99 = next((le for le, count in delta if total and count >= 0.99 * total), None)
# Agents the agent cache read from the database during the storm (issue 30 §2: writes of other
# rows, and the counters a turn moves, cost none); absent from servers older than the counter.
def loads(path):
    for line in open(path):
        if line.startswith("parley_agent_cache_loads_total "): return int(line.split()[1])
    return None
l0, l1 = loads(sys.argv[6]), loads(sys.argv[7])
r["agent_cache_loads"] = None if l0 is None or l1 is None else l1 - l0
r.update(concurrency=n, rss_before_kb=before, rss_peak_kb=peak, threads_peak=threads,
         rss_per_reply_kb=round((peak - before) / n, 1),
         get_agent_server_p99_ms_at_most=None if server_p99 is None else server_p99 * 1000)
print(json.dumps(r))
PY
)")
  echo "${results[-1]}"
done

printf '%s\n' "${results[@]}" >"$TMP/results.jsonl"
python3 - "$OUT" "$TMP/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
out = sys.argv[1]
json.dump(rows, open(out + ".json", "w"), indent=1)
targets = {2000: 3000, 10000: 5000}
lines = [
    "# Live replies per node",
    "",
    "Concurrent chats against `openai` agents whose provider (nginx on loopback, HTTPS and HTTP/2)",
    "answers each completion after 2 s. 8 agents of one account; half of each storm streamed, half",
    "JSON; each chat on its own connection, all started at once (`bench/tools/chat_storm`). The",
    "server, nginx and the load generator share this machine's 2 cores. GET agent: one request",
    "every 20 ms on a kept-alive connection during the storm, from its own thread of the load",
    "generator; the server's share is the bucket of its duration histogram holding the 99th percentile.",
    "Agent reads from the database: the agent cache's misses during the storm (all agents).",
    "",
    "| concurrent chats | answered | failures | p50 ms | p99 ms | max ms | replies/s | peak RSS MB | RSS per reply KB | peak threads | GET agent p50 / p99 ms | GET agent p99 in the server | agent reads from the database | target |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
]
for r in rows:
    n = r["concurrency"]
    fails = ", ".join(f"{k}: {v}" for k, v in r["failures"].items()) or "none"
    probe = r.get("probe") or {}
    target = ""
    if n in targets:
        mark = lambda ok: "met" if ok else "**missed**"
        target = (f"all answered: {mark(r['answered'] == n)}; p99 ≤ {targets[n] // 1000} s: {mark(r['p99_ms'] <= targets[n])}; "
                  f"≤ 32 KB per reply: {mark(r['rss_per_reply_kb'] <= 32)}; GET p99 < 2 ms: {mark(probe.get('p99_ms', 99) < 2)}")
    lines.append(f"| {n:,} | {r['answered']:,} | {fails} | {r['p50_ms']:.0f} | {r['p99_ms']:.0f} | {r['max_ms']:.0f} | "
                 f"{r['replies_per_s']:.0f} | {r['rss_peak_kb'] / 1024:.0f} | {r['rss_per_reply_kb']} | {r['threads_peak']} | "
                 f"{probe.get('p50_ms', 0):.2f} / {probe.get('p99_ms', 0):.2f} | ≤ {r['get_agent_server_p99_ms_at_most']} ms | {'—' if r.get('agent_cache_loads') is None else r['agent_cache_loads']} | {target} |")
open(out + ".md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
