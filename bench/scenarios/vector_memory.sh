#!/usr/bin/env bash
# Embedding vectors under the knowledge memory budget (issue 30 §1): many `openai` agents with
# `llm.embeddingModel`, each trained on its own synthetic text, whose chunks a fake provider embeds
# at dimension 1,536 (as hosted models do). Then a fresh server on the same data asks every agent
# one question in random order (each question loads the agent's BM25 index and its vectors), and
# the server's RSS and knowledge figures are read. Run with VM_BEFORE_BINARY set, the same data is
# asked by that binary too, one server after the other. Writes bench/results/vector_memory.md.
#
#   VM_AGENTS (60), VM_CHARS per agent (200000), VM_BUDGET_MB (32); VM_BEFORE_LABEL names the
#   other binary's row.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/common.sh
BEFORE="${VM_BEFORE_BINARY:-}"
AGENTS="${VM_AGENTS:-60}"
CHARS="${VM_CHARS:-200000}"
BUDGET_MB="${VM_BUDGET_MB:-32}"
OUT="${VM_OUT:-bench/results/vector_memory.md}"
TMP=$(mktemp -d "$BENCH_TMP/vector-memory-XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do stop_pid "$p" || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

# The provider: every input embedded as a 1,536-dimension vector drawn from its hash; every
# completion a short SSE stream.
LLM_PORT=$(free_port)
python3 - "$LLM_PORT" <<'PY' &
import hashlib, json, random, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Provider(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path.endswith("/embeddings"):
            data = []
            for i, text in enumerate(body["input"]):
                rng = random.Random(hashlib.sha256(text.encode()).digest())
                data.append({"index": i, "embedding": [round(rng.uniform(-1, 1), 4) for _ in range(1536)]})
            out, kind = json.dumps({"data": data}).encode(), "application/json"
        else:
            events = [{"choices": [{"index": 0, "delta": {"content": "Open from 9 to 5 [1]."}}]},
                      {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
            out = "".join("data: %s\n\n" % json.dumps(e) for e in events) + "data: [DONE]\n\n"
            out, kind = out.encode(), "text/event-stream"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Provider).serve_forever()
PY
pids+=($!)

data="$TMP/data"
mkdir -p "$data"
BENCH_DATA="$data"  # common.sh's admin
account=$(admin account create --name Vectors --plan enterprise | json_field '["id"]')
admin account set-limits "$account" '{"messagesPerMonth": 1000000000, "trainingCharacters": 100000000000}' >/dev/null
key=$(admin key create --account "$account" --name bench | json_field '["key"]')
agents=()
for i in $(seq 1 "$AGENTS"); do
  agents+=("$(admin agent create --account "$account" --name "Agent $i" \
    --settings '{"engine":"openai","llm":{"embeddingModel":"bench-embed"}}' | json_field '["id"]')")
done

# serve BINARY: starts that binary on the data with the budget (common.sh start_parley); sets
# PORT and SERVER_PID.
serve() {
  PORT=$(free_port)
  PARLEY="$1" PARLEY_LLM_API_KEY=bench PARLEY_KNOWLEDGE_MEMORY_MB="$BUDGET_MB" \
    start_parley "$data" "$PORT" "" --llm-base-url "http://127.0.0.1:$LLM_PORT" --llm-model bench \
    --rate-limit-per-minute 1000000000 --agent-replies-per-hour 1000000000
  SERVER_PID=$PARLEY_PID
  pids+=("$SERVER_PID")
}

# Training: one text source per agent, of distinct synthetic sentences.
serve "$PARLEY"
python3 - "$PORT" "$key" "$CHARS" "${agents[@]}" <<'PY'
import json, random, sys, time, urllib.request
port, key, chars, agents = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
words = ["kayak", "tent", "helmet", "bicycle", "lantern", "rope", "boot", "map", "stove", "paddle",
         "compass", "jacket", "trail", "river", "summit", "harbor", "meadow", "canyon", "glacier", "forest"]
def call(method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return r.status, json.loads(r.read())
for n, agent in enumerate(agents):
    rng = random.Random(n)
    text = []
    size = 0
    while size < chars:
        s = " ".join(rng.choice(words) for _ in range(12)).capitalize() + f" costs {rng.randint(1, 999)} euros. "
        text.append(s)
        size += len(s)
    status, _ = call("POST", f"/api/v1/agents/{agent}/sources", {"type": "text", "title": f"Catalogue {n}", "content": "".join(text)[:chars]})
    assert status == 201, status
deadline = time.time() + 1800
for agent in agents:
    while True:
        _, body = call("GET", f"/api/v1/agents/{agent}/sources")
        if body["training"]["done"]:
            assert body["training"]["trained"] == 1, body["training"]
            break
        assert time.time() < deadline, "training took too long"
        time.sleep(0.2)
PY
stop_pid "$SERVER_PID"
read -r chunks stored_mb < <(python3 -c "
import sqlite3, sys
n, b = sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*), SUM(LENGTH(vector)) FROM chunk_embeddings').fetchone()
print(n, '%.1f' % ((b or 0) / 1048576))" "$data/parley.db")

rows=()
# ask NAME BINARY: a fresh server asks every agent once in random order, then reports.
ask() {
  serve "$2"
  local rss_start; rss_start=$(rss_kb "$SERVER_PID")
  local took
  took=$(python3 - "$PORT" "$key" "${agents[@]}" <<'PY'
import json, random, sys, time, urllib.request
port, key, agents = sys.argv[1], sys.argv[2], sys.argv[3:]
random.Random(7).shuffle(agents)
ms = []
for agent in agents:
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/agents/{agent}/chat", method="POST",
                                 data=json.dumps({"message": "What does a kayak helmet cost?"}).encode(),
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(req, timeout=60) as r:
        assert r.status == 200
        r.read()
    ms.append((time.perf_counter() - start) * 1000)
ms.sort()
print("%.0f / %.0f" % (ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))]))
PY
)
  local rss; rss=$(rss_kb "$SERVER_PID")
  curl -s "http://127.0.0.1:$PORT/metrics" >"$TMP/metrics"
  m() { awk -v k="$1" '$1 == k {print $2}' "$TMP/metrics"; }
  local total vectors sets evictions
  total=$(m parley_knowledge_memory_bytes); vectors=$(m parley_knowledge_vectors_memory_bytes)
  sets=$(m parley_knowledge_vector_sets_loaded); evictions=$(m parley_knowledge_vector_set_evictions_total)
  rows+=("$1|$took|$((rss_start / 1024))|$((rss / 1024))|$(python3 -c "print('%.1f' % (${total:-0} / 1048576))")|$([ -n "$vectors" ] && python3 -c "print('%.1f' % ($vectors / 1048576))" || echo —)|${sets:-—}|${evictions:-—}")
  stop_pid "$SERVER_PID"
}
[ -n "$BEFORE" ] && ask "${VM_BEFORE_LABEL:-before}" "$BEFORE"
ask "this build" "$PARLEY"

{
  echo "# Embedding vectors under the knowledge memory budget"
  echo
  echo "\`bench/scenarios/vector_memory.sh\`: $AGENTS \`openai\` agents with \`llm.embeddingModel\`, each trained"
  echo "on $CHARS characters; a fake provider embeds every chunk at dimension 1,536 ($chunks chunks, $stored_mb MB"
  echo "of stored vectors). A fresh server with \`--knowledge-memory-mb $BUDGET_MB\` asks every agent one question in"
  echo "random order (each loads the agent's BM25 index and its vectors). \`$(git rev-parse --short HEAD)\`, $(date -u +%Y-%m-%d)."
  echo
  echo "| binary | first reply p50 / p99 ms | RSS at start MB | RSS after asking every agent MB | knowledge memory MB (indexes and vectors, as counted) | of it vectors MB | agents' vectors in memory | vector sets evicted |"
  echo "|---|---|---|---|---|---|---|---|"
  for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
} >"$OUT"
cat "$OUT"
