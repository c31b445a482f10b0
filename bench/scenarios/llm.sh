#!/usr/bin/env bash
# LLM scenario: starts a small OpenAI-compatible provider (Python, loopback, answers every
# completion at once with a 50-token SSE stream) and build/parley on free loopback ports with a
# temporary data dir, then measures chat replies through the `openai` engine: 300 JSON replies
# and 300 streamed replies from 4 concurrent clients (latency p50/p99 and replies per second,
# i.e. Parley's own cost around a provider that answers instantly), then the LLM micro
# benchmarks. Writes bench/results/llm.md. Bounded: gives up after 3 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
OUT=bench/results/llm.md
mkdir -p bench/results
DATA=$(mktemp -d)
PID=""
LLM_PID=""
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  if [ -n "$LLM_PID" ]; then kill "$LLM_PID" 2>/dev/null || true; wait "$LLM_PID" 2>/dev/null || true; fi
  rm -rf "$DATA"
}
trap cleanup EXIT
deadline=$((SECONDS + 180))
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

LLM_PORT=$(free_port)
cat >"$DATA/provider.py" <<'PY'
import json, socket, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
CHUNKS = b"".join(
    b"data: " + json.dumps({"object": "chat.completion.chunk",
                            "choices": [{"index": 0, "delta": {"content": f" token{i}"}}]}).encode() + b"\n\n"
    for i in range(50)) + b"data: [DONE]\n\n"
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def setup(self):
        super().setup()
        # As real providers do: Parley keeps its connection to the provider, and with Nagle on
        # here the body would wait for the ACK of the headers (40 ms of delayed ACK per reply).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(CHUNKS)))
        self.end_headers()
        self.wfile.write(CHUNKS)
    def log_message(self, *args):
        pass
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
python3 "$DATA/provider.py" "$LLM_PORT" &
LLM_PID=$!

PORT=$(free_port)
export PARLEY_DATA_DIR="$DATA"
"$BIN" serve --listen "127.0.0.1:$PORT" --rate-limit-per-minute 100000000 \
  --llm-base-url "http://127.0.0.1:$LLM_PORT" --llm-model bench 2>"$DATA/server.log" &
PID=$!
BASE="http://127.0.0.1:$PORT"
until curl -sf "$BASE/healthz" >/dev/null; do
  sleep 0.1
  [ $SECONDS -lt $deadline ] || { echo "server did not start"; exit 1; }
done

ACCOUNT=$("$BIN" admin account create --name Bench --plan enterprise | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
AGENT=$("$BIN" admin agent create --account "$ACCOUNT" --name Bench --settings '{"engine":"openai"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
KEY=$("$BIN" admin key create --account "$ACCOUNT" --name bench | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')

FIGURES=$(python3 - "$BASE" "$AGENT" "$KEY" <<'PY'
import http.client, json, sys, threading, time
base, agent, key = sys.argv[1:4]
host, port = base.replace("http://", "").split(":")
def run(stream, total=300, clients=4):
    lat, lock = [], threading.Lock()
    def worker(n):
        conn = http.client.HTTPConnection(host, int(port))
        for _ in range(n):
            body = json.dumps({"message": "What are your opening hours?", "stream": stream})
            t = time.perf_counter()
            conn.request("POST", f"/api/v1/agents/{agent}/chat", body,
                         {"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
            r = conn.getresponse(); r.read()
            assert r.status == 200, r.status
            with lock: lat.append((time.perf_counter() - t) * 1000)
    start = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(total // clients,)) for _ in range(clients)]
    [t.start() for t in threads]; [t.join() for t in threads]
    elapsed = time.perf_counter() - start
    lat.sort()
    return len(lat) / elapsed, lat[len(lat) // 2], lat[int(len(lat) * 0.99) - 1]
for stream in (False, True):
    rps, p50, p99 = run(stream)
    print(f"| {'streamed' if stream else 'JSON'} reply, 50 tokens, 4 clients | {rps:.0f} | {p50:.2f} | {p99:.2f} |")
PY
)
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""

micro=""
if [ -x build/parley_micro_bench ]; then
  micro=$(build/parley_micro_bench --benchmark_filter='BM_(DecodeStream|RequestBody|AsksForPerson)' --benchmark_min_time=0.3 2>/dev/null | grep BM_ || true)
fi

{
  echo "# LLM benchmark"
  echo
  echo "Chat through the \`openai\` engine against a loopback provider that answers at once (so the"
  echo "figures are Parley's own cost: HTTP in, prompt, provider call over HTTP, SSE decoding, relay,"
  echo "storage with \`synchronous=FULL\`). Same machine, provider and clients share its 2 cores."
  echo
  echo "| scenario | replies/s | p50 ms | p99 ms |"
  echo "|---|---|---|---|"
  echo "$FIGURES"
  echo
  echo "Micro benchmarks (one core):"
  echo
  echo '```'
  echo "$micro"
  echo '```'
} >"$OUT"
cat "$OUT"
