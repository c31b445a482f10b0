#!/usr/bin/env bash
# Data API benchmark: list conversations at page 1 and at a deep cursor on an agent with
# 1,000,000 conversations (p99 of each with wrk), and contact create-or-update throughput.
# Starts its own server on a free loopback port with a temporary data dir and stops it at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
ROWS="${DATA_BENCH_ROWS:-1000000}"
DURATION="${DATA_BENCH_DURATION:-10s}"
OUT=bench/results/data.md
mkdir -p bench/results
TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
export PARLEY_DATA_DIR="$TMP/data"

admin() { "$BIN" admin "$@"; }
ACCOUNT=$(admin account create --name Bench --plan enterprise | jq -r .id)
AGENT=$(admin agent create --account "$ACCOUNT" --name Bench | jq -r .id)
KEY=$(admin key create --account "$ACCOUNT" --name bench | jq -r .key)
DB="$PARLEY_DATA_DIR/parley.db"
[ -f "$DB" ] || DB=$(ls "$PARLEY_DATA_DIR"/*.db | head -1)

# Bulk load: one conversation per second going back from now, ids of base62 digits.
start=$(date +%s)
NOW_MS=$(($(date +%s) * 1000))
sqlite3 "$DB" <<SQL
PRAGMA journal_mode=WAL;
PRAGMA synchronous=OFF;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $ROWS)
INSERT INTO conversations (id, agent_id, account_id, session_id, channel, country, page, created_at,
                           last_activity_at, message_count)
SELECT 'cnv_' || printf('%022d', i), '$AGENT', '$ACCOUNT', 'ses_' || i,
       CASE WHEN i % 3 = 0 THEN 'api' ELSE 'widget' END,
       CASE WHEN i % 3 = 0 THEN NULL ELSE 'DE' END,
       CASE WHEN i % 3 = 0 THEN NULL ELSE 'https://example.com/p' || (i % 50) END,
       $NOW_MS - i * 1000, $NOW_MS - i * 1000 + 60000, 2
FROM n;
UPDATE agents SET conversations_count = $ROWS WHERE id = '$AGENT';
COMMIT;
ANALYZE;
SQL
load_s=$(( $(date +%s) - start ))

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
PARLEY_RATE_LIMIT_PER_MINUTE=1000000000 "$BIN" serve --listen "127.0.0.1:$PORT" 2>"$TMP/server.log" &
SERVER_PID=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

BASE="http://127.0.0.1:$PORT/api/v1/agents/$AGENT"
# A cursor 990,000 items deep: the position of conversation number 990,000.
DEEP=990000
CURSOR=$(python3 - "$AGENT" "$((NOW_MS - DEEP * 1000))" "cnv_$(printf '%022d' $DEEP)" <<'PY'
import base64, hashlib, sys
agent, ms, cid = sys.argv[1:4]
payload = f"conversations.{ms}.{cid}"
check = hashlib.sha256(f"parley-cursor:{agent}:{payload}".encode()).hexdigest()[:12]
print(base64.urlsafe_b64encode(f"{payload}.{check}".encode()).decode().rstrip("="))
PY
)
deep_first=$(curl -fs -H "Authorization: Bearer $KEY" "$BASE/conversations?limit=20&cursor=$CURSOR" | jq -r '.data[0].id')
[ "$deep_first" = "cnv_$(printf '%022d' $((DEEP + 1)))" ] || { echo "deep cursor page is wrong: $deep_first"; exit 1; }

run_wrk() {  # url [script] -> prints "rps p50 p99"
  local args=(-t1 -c2 -d"$DURATION" --latency -H "Authorization: Bearer $KEY")
  [ -n "${2:-}" ] && args+=(-s "$2")
  wrk "${args[@]}" "$1" > "$TMP/wrk.txt"
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' "$TMP/wrk.txt")
  p50=$(awk '$1=="50%" {print $2}' "$TMP/wrk.txt")
  p99=$(awk '$1=="99%" {print $2}' "$TMP/wrk.txt")
  if grep -q "Non-2xx" "$TMP/wrk.txt"; then grep "Non-2xx" "$TMP/wrk.txt" >&2; fi
  echo "$rps $p50 $p99"
}

read -r p1_rps p1_p50 p1_p99 < <(run_wrk "$BASE/conversations?limit=20")
read -r dp_rps dp_p50 dp_p99 < <(run_wrk "$BASE/conversations?limit=20&cursor=$CURSOR")
read -r sp_rps sp_p50 sp_p99 < <(run_wrk "$BASE/conversations?limit=20&cursor=$CURSOR&since=2000-01-01T00:00:00Z")
# Incremental sync: conversations active in the last 20 seconds (about 80, one page, hasMore false).
RECENT=$(python3 -c "import datetime,sys; print(datetime.datetime.fromtimestamp(($NOW_MS - 20000)/1000, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.000Z'))")
read -r rc_rps rc_p50 rc_p99 < <(run_wrk "$BASE/conversations?limit=100&since=$RECENT")

cat > "$TMP/upsert.lua" <<'LUA'
local n = 0
local prefix = tostring(math.random(1, 1e9))
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n + 1
  -- Every fourth request updates a contact made earlier; the rest create new ones.
  local id = (n % 4 == 0) and (n - 3) or n
  local body = string.format('{"external_id":"%s-%d","email":"u%s-%d@example.com","attributes":{"n":%d}}',
                             prefix, id, prefix, id, n)
  return wrk.format(nil, nil, nil, body)
end
LUA
read -r up_rps up_p50 up_p99 < <(run_wrk "$BASE/contacts" "$TMP/upsert.lua")

cat > "$OUT" <<MD
# Data API benchmark

$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores shared; wrk 1 thread, 2 connections, $DURATION each;
server with SQLite (default durability: full), $ROWS conversations on one agent (bulk load ${load_s}s).

| scenario | req/s | p50 | p99 |
|---|---|---|---|
| list conversations, page 1 (limit 20) | $p1_rps | $p1_p50 | $p1_p99 |
| list conversations, cursor $DEEP deep (limit 20) | $dp_rps | $dp_p50 | $dp_p99 |
| same deep cursor with since (all match) | $sp_rps | $sp_p50 | $sp_p99 |
| since 20 s ago, limit 100 (80 items, whole answer) | $rc_rps | $rc_p50 | $rc_p99 |
| contact create-or-update (POST, 3 creates : 1 update) | $up_rps | $up_p50 | $up_p99 |
MD
cat "$OUT"
