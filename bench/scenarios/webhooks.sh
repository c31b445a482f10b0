#!/usr/bin/env bash
# Webhooks scenario: an HTTPS receiver (nginx answering 204, self-signed certificate trusted
# through the test-only extra-CA setting) and build/parley on free loopback ports with a
# temporary data dir. Measures (1) delivery throughput: a backlog of 5,000 form submissions
# recorded before the server starts, fanned out and delivered to one webhook; (2) outbox latency:
# 300 events recorded one at a time against the idle server, time from the record's commit to
# its first delivery attempt (p50/p99). Figures come from the delivery history in the database.
# Writes bench/results/webhooks.md and .json. Bounded: gives up after 4 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
OUT=bench/results/webhooks.md
mkdir -p bench/results
DATA=$(mktemp -d)
PID=""
NGINX_PID=""
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  if [ -n "$NGINX_PID" ]; then kill "$NGINX_PID" 2>/dev/null || true; wait "$NGINX_PID" 2>/dev/null || true; fi
  rm -rf "$DATA"
}
trap cleanup EXIT
deadline=$((SECONDS + 240))
BACKLOG=${WEBHOOKS_BENCH_BACKLOG:-5000}
SINGLES=${WEBHOOKS_BENCH_SINGLES:-300}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
json_field() { python3 -c "import json,sys; print(json.load(sys.stdin)[\"$1\"])"; }

# The receiver.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$DATA/key.pem" \
  -out "$DATA/cert.pem" -days 1 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 2>/dev/null
RPORT=$(free_port)
mkdir -p "$DATA/nginx"
cat >"$DATA/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $DATA/nginx/nginx.pid;
error_log $DATA/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $DATA/nginx/body;
  proxy_temp_path $DATA/nginx/proxy;
  fastcgi_temp_path $DATA/nginx/fastcgi;
  uwsgi_temp_path $DATA/nginx/uwsgi;
  scgi_temp_path $DATA/nginx/scgi;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$RPORT ssl;
    ssl_certificate $DATA/cert.pem;
    ssl_certificate_key $DATA/key.pem;
    location / { return 204; }
  }
}
CONF
nginx -p "$DATA/nginx" -c "$DATA/nginx/nginx.conf" -g 'daemon off;' 2>"$DATA/nginx/stderr.log" &
NGINX_PID=$!

export PARLEY_DATA_DIR="$DATA/parley"
export PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS=1
export PARLEY_WEBHOOK_EXTRA_CA_FILE="$DATA/cert.pem"
DB="$PARLEY_DATA_DIR/parley.db"
ACCOUNT=$("$BIN" admin account create --name Bench --plan enterprise | json_field id)
AGENT=$("$BIN" admin agent create --account "$ACCOUNT" --name Bench | json_field id)
HOOK=$("$BIN" admin webhook add --agent "$AGENT" --url "https://127.0.0.1:$RPORT/hook" --events form.submitted | json_field id)
PARLEY_DURABILITY=normal "$BIN" admin record form --agent "$AGENT" --form bench \
  --fields '[{"id":"email","value":"bench@example.com"},{"id":"message","value":"Hello"}]' --repeat "$BACKLOG" >/dev/null

start_server() {
  PORT=$(free_port)
  "$BIN" serve --listen "127.0.0.1:$PORT" 2>>"$DATA/server.log" &
  PID=$!
  until curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null; do
    sleep 0.05
    [ $SECONDS -lt $deadline ] || { echo "server did not start"; exit 1; }
  done
}
succeeded() { sqlite3 "$DB" "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'succeeded'"; }

# (1) Throughput over the backlog.
start_server
while [ "$(succeeded)" -lt "$BACKLOG" ]; do
  sleep 0.2
  [ $SECONDS -lt $deadline ] || { echo "backlog not delivered in time"; exit 1; }
done
THROUGHPUT=$(sqlite3 "$DB" "SELECT printf('%.0f', COUNT(*) * 1000.0 / (MAX(a.started_at + a.duration_ms) - MIN(a.started_at)))
  FROM webhook_attempts a")
WINDOW_MS=$(sqlite3 "$DB" "SELECT MAX(a.started_at + a.duration_ms) - MIN(a.started_at) FROM webhook_attempts a")
FAILED=$(sqlite3 "$DB" "SELECT COUNT(*) FROM webhook_attempts WHERE succeeded = 0")

# (2) Latency from record to first attempt, one event at a time against the idle server.
MARK=$(sqlite3 "$DB" "SELECT MAX(created_at) FROM event_outbox")
for _ in $(seq 1 "$SINGLES"); do
  "$BIN" admin record form --agent "$AGENT" --form bench >/dev/null
done
while [ "$(succeeded)" -lt $((BACKLOG + SINGLES)) ]; do
  sleep 0.1
  [ $SECONDS -lt $deadline ] || { echo "single events not delivered in time"; exit 1; }
done
sqlite3 "$DB" "SELECT a.started_at - o.created_at FROM event_outbox o
  JOIN webhook_deliveries d ON d.outbox_id = o.id JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = 1
  WHERE o.created_at > $MARK ORDER BY 1" >"$DATA/latencies.txt"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""

python3 - "$OUT" "$BACKLOG" "$THROUGHPUT" "$WINDOW_MS" "$FAILED" "$DATA/latencies.txt" <<'PY'
import json, sys
out, backlog, throughput, window_ms, failed, lat_file = sys.argv[1:7]
lat = [int(x) for x in open(lat_file).read().split()]
def pct(p):
    return lat[min(len(lat) - 1, int(round(p / 100.0 * (len(lat) - 1))))]
figures = {
    "backlog_events": int(backlog), "delivery_events_per_s": int(throughput), "delivery_window_ms": int(window_ms),
    "failed_attempts": int(failed), "latency_samples": len(lat), "latency_p50_ms": pct(50),
    "latency_p99_ms": pct(99), "latency_max_ms": lat[-1],
}
with open(out.replace(".md", ".json"), "w") as f:
    json.dump(figures, f, indent=2)
with open(out, "w") as f:
    f.write("# Webhooks benchmark\n\n")
    f.write("One `parley serve` (SQLite, `synchronous=FULL`, 32 concurrent senders, fair shares of 4 per webhook and 8 per account) delivering to nginx over HTTPS on\n")
    f.write("loopback (2-core machine shared with other work). Figures from the delivery history.\n\n")
    f.write("| figure | value | target |\n|---|---|---|\n")
    f.write(f"| delivery throughput, backlog of {int(backlog):,} events | {int(throughput):,} events/s | ≥ 1,000/s |\n")
    f.write(f"| failed attempts | {failed} | 0 |\n")
    f.write(f"| record → first attempt, p50 ({len(lat)} events one at a time) | {pct(50)} ms | |\n")
    f.write(f"| record → first attempt, p99 | {pct(99)} ms | < 1,000 ms |\n")
    f.write(f"| record → first attempt, max | {lat[-1]} ms | |\n")
print(open(out).read())
PY
