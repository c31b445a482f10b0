#!/usr/bin/env bash
# Time to the first byte of a streamed chat reply: the plain-text stream (stream: true) against
# server-sent events (Accept: text/event-stream, first event `meta`), retrieval engine, one node,
# one request at a time (curl's time_starttransfer), rounds alternating the two.
# Writes bench/results/chat_events.md and .json.
set -euo pipefail
source bench/lib/common.sh
N="${CHAT_EVENTS_REQUESTS:-200}"
out_md=bench/results/chat_events.md
out_json=bench/results/chat_events.json

BENCH_DATA=$(mktemp -d "$BENCH_TMP/chat-events-XXXXXX")
cleanup() {
  [ -n "${PARLEY_PID:-}" ] && stop_pid "$PARLEY_PID"
  rm -rf "$BENCH_DATA"
}
trap cleanup EXIT
account=$(admin account create --name Bench --plan enterprise | json_field '["id"]')
agent=$(admin agent create --account "$account" --name Bench | json_field '["id"]')
key=$(admin key create --account "$account" --name bench | json_field '["key"]')
port=$(free_port)
start_parley "$BENCH_DATA" "$port" "" --rate-limit-per-minute 1000000000 --agent-replies-per-hour 100000000
base="http://127.0.0.1:$port/api/v1/agents/$agent"
curl -sf -o /dev/null -H "Authorization: Bearer $key" -H "Content-Type: application/json" \
  -d '{"type":"text","title":"Returns","content":"Returns are accepted within 30 days of delivery."}' "$base/sources"
sleep 1

samples="$BENCH_TMP/chat-events-samples.txt"
: >"$samples"
for i in $(seq 1 "$N"); do
  for form in text events; do
    accept=()
    [ "$form" = events ] && accept=(-H "Accept: text/event-stream")
    t=$(curl -s -o /dev/null -w '%{time_starttransfer}' -H "Authorization: Bearer $key" \
      -H "Content-Type: application/json" "${accept[@]}" \
      -d '{"message":"Are returns accepted?","stream":true}' "$base/chat")
    echo "$form $t" >>"$samples"
  done
done

python3 - "$samples" "$out_md" "$out_json" "$N" <<'PY'
import json, statistics, sys
samples, out_md, out_json, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
by = {"text": [], "events": []}
for line in open(samples):
    form, t = line.split()
    by[form].append(float(t) * 1000)
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
rows = {f: {"p50_ms": round(pct(v, 50), 3), "p99_ms": round(pct(v, 99), 3), "mean_ms": round(statistics.mean(v), 3)} for f, v in by.items()}
with open(out_md, "w") as f:
    f.write("# Streamed chat: first byte, plain text against server-sent events\n\n")
    f.write(f"{n} requests of each form, one at a time, alternating; retrieval engine on a trained agent; one node on\n"
            "SQLite; curl's time to the first byte of the response (the plain stream's first text, the\n"
            "event stream's `meta`).\n\n")
    f.write("| form | p50 ms | p99 ms | mean ms |\n|---|---|---|---|\n")
    f.write(f"| text/plain stream | {rows['text']['p50_ms']} | {rows['text']['p99_ms']} | {rows['text']['mean_ms']} |\n")
    f.write(f"| text/event-stream | {rows['events']['p50_ms']} | {rows['events']['p99_ms']} | {rows['events']['mean_ms']} |\n")
json.dump(rows, open(out_json, "w"), indent=2)
print(open(out_md).read())
PY
