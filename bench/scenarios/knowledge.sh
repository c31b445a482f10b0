#!/usr/bin/env bash
# Knowledge scenario: starts build/parley on a free loopback port with a temporary data dir,
# adds text sources over HTTP (about 10 MB), measures how fast they are trained end to end
# (HTTP, database, chunking, indexing), then runs the knowledge micro benchmarks (training
# throughput on one core, retrieval p50/p99 over 10,000 sources / 10 million characters, index
# memory). Writes bench/results/knowledge.md. Bounded: gives up after 4 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
OUT=bench/results/knowledge.md
mkdir -p bench/results
DATA=$(mktemp -d)
PID=""
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$DATA"
}
trap cleanup EXIT
deadline=$((SECONDS + 240))

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
export PARLEY_DATA_DIR="$DATA"
"$BIN" serve --listen "127.0.0.1:$PORT" --rate-limit-per-minute 1000000 2>"$DATA/server.log" &
PID=$!
BASE="http://127.0.0.1:$PORT"
until curl -sf "$BASE/healthz" >/dev/null; do
  sleep 0.1
  [ $SECONDS -lt $deadline ] || { echo "server did not start"; exit 1; }
done

ACCOUNT=$("$BIN" admin account create --name Bench --plan enterprise | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
AGENT=$("$BIN" admin agent create --account "$ACCOUNT" --name Bench | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
KEY=$("$BIN" admin key create --account "$ACCOUNT" --name bench | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')

# 100 bodies of about 100,000 characters of prose-like text.
python3 - "$DATA" <<'PY'
import json, random, sys
random.seed(1)
words = ["".join(random.choice("etaoinshrdlcumwfgypbvk") for _ in range(random.randint(2, 10))) for _ in range(20000)]
weights = [1.0 / (i + 1) for i in range(len(words))]
for n in range(100):
    text, size = [], 0
    while size < 100000:
        sentence = " ".join(random.choices(words, weights, k=random.randint(8, 17))).capitalize() + "."
        text.append(sentence); size += len(sentence) + 1
    with open(f"{sys.argv[1]}/body{n}.json", "w") as f:
        json.dump({"type": "text", "title": f"Document {n}", "content": " ".join(text)}, f)
PY

start=$(date +%s.%N)
for n in $(seq 0 99); do
  curl -sf -o /dev/null -X POST "$BASE/api/v1/agents/$AGENT/sources" -H "Authorization: Bearer $KEY" \
    -H 'Content-Type: application/json' --data-binary "@$DATA/body$n.json"
done
added=$(date +%s.%N)
while true; do
  body=$(curl -sf "$BASE/api/v1/agents/$AGENT/sources" -H "Authorization: Bearer $KEY")
  done_flag=$(echo "$body" | python3 -c 'import json,sys; print(json.load(sys.stdin)["training"]["done"])')
  [ "$done_flag" = "True" ] && break
  sleep 0.05
  [ $SECONDS -lt $deadline ] || { echo "training did not finish"; exit 1; }
done
finished=$(date +%s.%N)
chars=$(echo "$body" | python3 -c 'import json,sys; print(json.load(sys.stdin)["characters"]["used"])')
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""

micro=""
if [ -x build/parley_micro_bench ]; then
  micro=$(build/parley_micro_bench --benchmark_filter=Knowledge --benchmark_min_time=0.5 2>/dev/null | grep BM_ || true)
fi

python3 - "$start" "$added" "$finished" "$chars" "$OUT" "$micro" <<'PY'
import sys
start, added, finished, chars = map(float, sys.argv[1:5])
out, micro = sys.argv[5], sys.argv[6]
with open(out, "w") as f:
    f.write("# Knowledge benchmark\n\n")
    f.write("End to end (HTTP POST of 100 sources, then training by the server's workers, SQLite, `synchronous=FULL`):\n\n")
    f.write("| figure | value |\n|---|---|\n")
    f.write(f"| characters added | {int(chars):,} |\n")
    f.write(f"| time to add (100 POSTs, 1 client) | {added - start:.2f} s |\n")
    f.write(f"| time from first POST until training done | {finished - start:.2f} s |\n")
    f.write(f"| end-to-end training throughput | {chars / (finished - start) / 1e6:.1f} M characters/s |\n\n")
    f.write("Micro benchmarks (`build/parley_micro_bench --benchmark_filter=Knowledge`; rates in characters = bytes, ASCII):\n\n```\n" + micro + "\n```\n")
PY
cat "$OUT"
