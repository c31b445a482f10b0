#!/usr/bin/env bash
# Export benchmark (docs/decisions/records.md): an agent with EXPORT_BENCH_ROWS conversations
# (default 1,000,000, two messages each, loaded by SQL on SQLite), exported as JSON Lines and CSV
# over the newest 10,000, 100,000 and all of them: by `parley admin conversation export` (peak
# RSS of the process, /usr/bin/time) and by the console route through a running server (the
# server's peak RSS, VmHWM, read after each download; downloads run smallest first, so a peak that
# grew with the export's size would show). Flat memory means the peaks barely move with the size.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/common.sh
ROWS="${EXPORT_BENCH_ROWS:-1000000}"
OUT=bench/results/export.md
TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
export PARLEY_DATA_DIR="$TMP/data"
admin() { "$PARLEY" admin "$@"; }
ACCOUNT=$(admin account create --name Bench --plan enterprise | jq -r .id)
AGENT=$(admin agent create --account "$ACCOUNT" --name Bench | jq -r .id)
TOKEN=$(admin member create --account "$ACCOUNT" --email bench@example.com --role owner | jq -r .token)
DB="$PARLEY_DATA_DIR/parley.db"

# One conversation per second going back from now, each with a visitor message and a reply.
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
       $NOW_MS - i * 1000, $NOW_MS - i * 1000 + 2000, 2
FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $ROWS)
INSERT INTO messages (id, conversation_id, seq, role, content, sources, created_at, outcome, confidence)
SELECT 'msg_' || printf('%022d', i) || 'a', 'cnv_' || printf('%022d', i), 1, 'user',
       'How long does delivery to Hamburg take, and can I pay by invoice? Order ' || i, '[]',
       $NOW_MS - i * 1000 + 1000, NULL, NULL FROM n
UNION ALL
SELECT 'msg_' || printf('%022d', i) || 'b', 'cnv_' || printf('%022d', i), 2, 'assistant',
       'Delivery takes two working days; invoices are accepted for orders under 500 EUR.',
       '[{"title":"Shipping","url":"https://example.com/shipping"}]', $NOW_MS - i * 1000 + 2000,
       'answered', 0.82 FROM n;
UPDATE agents SET conversations_count = $ROWS, messages_count = 2 * $ROWS WHERE id = '$AGENT';
COMMIT;
ANALYZE;
SQL
load_s=$(( $(date +%s) - start ))
db_mb=$(( $(stat -c %s "$DB") / 1048576 ))

# The ISO time from which the newest N conversations were created.
since() { python3 -c "import datetime,sys; print(datetime.datetime.fromtimestamp(($NOW_MS - $1 * 1000) / 1000, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.000Z'))"; }
sizes=(10000 100000 "$ROWS")

{
  echo "# Export: $ROWS conversations in flat memory"
  echo
  echo "\`bench/scenarios/export.sh\` ($(date -u +%Y-%m-%d), $(nproc) cores shared with other work,"
  echo "SQLite; $ROWS conversations with two messages each, loaded by SQL in ${load_s} s, ${db_mb} MB)."
  echo "Peak RSS is the process's high-water mark (\`/usr/bin/time\` %M for the admin command,"
  echo "VmHWM of the server read after each download, downloads smallest first)."
  echo
  echo "## \`parley admin conversation export\`"
  echo
  echo "| conversations | format | bytes | seconds | peak RSS (MB) |"
  echo "|---:|---|---:|---:|---:|"
} > "$OUT"
for n in "${sizes[@]}"; do
  from=$(since "$n")
  [ "$n" = "$ROWS" ] && from="1970-01-01"
  for format in jsonl csv; do
    /usr/bin/time -f "%M %e" -o "$TMP/time" "$PARLEY" admin conversation export --agent "$AGENT" \
      --format "$format" --from "$from" | wc -c > "$TMP/bytes"
    read -r peak secs < "$TMP/time"
    echo "| $n | $format | $(cat "$TMP/bytes") | $secs | $(( peak / 1024 )) |" >> "$OUT"
  done
done

PORT=$(free_port)
"$PARLEY" serve --listen "127.0.0.1:$PORT" 2>"$TMP/server.log" &
SERVER_PID=$!
for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done
hwm() { awk '/^VmHWM/ {print int($2 / 1024)}' "/proc/$SERVER_PID/status"; }
{
  echo
  echo "## \`GET /console/v1/agents/{agentId}/conversations/export\` (server)"
  echo
  echo "Server peak RSS after start: $(hwm) MB."
  echo
  echo "| conversations | format | bytes | seconds | server peak RSS after (MB) |"
  echo "|---:|---|---:|---:|---:|"
} >> "$OUT"
for n in "${sizes[@]}"; do
  from=$(since "$n")
  [ "$n" = "$ROWS" ] && from="1970-01-01"
  for format in jsonl csv; do
    t0=$(date +%s.%N)
    code=$(curl -sS --max-time 1200 -o "$TMP/out" -w "%{http_code}" -H "Authorization: Bearer $TOKEN" \
      "http://127.0.0.1:$PORT/console/v1/agents/$AGENT/conversations/export?format=$format&from=$from")
    [ "$code" = 200 ] || { echo "export answered $code"; tail -5 "$TMP/server.log"; exit 1; }
    bytes=$(stat -c %s "$TMP/out")
    rm -f "$TMP/out"
    t1=$(date +%s.%N)
    echo "| $n | $format | $bytes | $(python3 -c "print(round($t1 - $t0, 1))") | $(hwm) |" >> "$OUT"
  done
done
cat "$OUT"
