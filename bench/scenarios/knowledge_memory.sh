#!/usr/bin/env bash
# Knowledge memory scenario (issue 30 §1): many agents, each with its own synthetic knowledge, on
# one node with a knowledge memory budget. Trains every agent over HTTP, then asks every agent one
# question in random order (most are cold: their index was evicted and loads from its persisted
# form) and reads the server's RSS; then asks one agent many times (hot). Writes
# bench/results/knowledge_memory.md and .json.
#
# The full size is the issue's: KM_AGENTS=1000 KM_CHARS=1000000 KM_BUDGET_MB=512 (about 1 GB of
# text to train; the SQLite folder grows to a few GB). On a shared machine run a scaled version,
# e.g. KM_AGENTS=200 KM_BUDGET_MB=128, and say so.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
AGENTS="${KM_AGENTS:-1000}"
CHARS="${KM_CHARS:-1000000}"
BUDGET_MB="${KM_BUDGET_MB:-512}"
OUT="${KM_OUT:-bench/results/knowledge_memory}"
mkdir -p bench/results
DATA=$(mktemp -d "${KM_TMP:-/tmp}/parley-km.XXXXXX")
PID=""
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$DATA"
}
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
export PARLEY_DATA_DIR="$DATA"
PARLEY_KNOWLEDGE_MEMORY_MB="$BUDGET_MB" "$BIN" serve --listen "127.0.0.1:$PORT" \
  --rate-limit-per-minute 100000000 2>"$DATA/server.log" &
PID=$!
until curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null; do sleep 0.1; done

python3 bench/scenarios/knowledge_memory.py --bin "$BIN" --port "$PORT" --pid "$PID" \
  --agents "$AGENTS" --chars "$CHARS" --budget-mb "$BUDGET_MB" --data "$DATA" --out "$OUT"
