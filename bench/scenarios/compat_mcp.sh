#!/usr/bin/env bash
# The MCP server's overhead over the plain chat endpoint, on the built-in (retrieval) engine: the
# server's CPU time per reply for POST /api/v1/agents/{agentId}/chat (JSON) and for POST /mcp
# tools/call ask_agent with the same questions, each a new conversation. CPU is read from the
# server's /proc/PID/stat (user + system, every thread) around rounds of sequential requests
# over one keep-alive connection, the two forms alternating so that the database's growth and the
# shared machine's load fall on both alike; the figure is the median round. Wall-clock time is not
# used. Writes bench/results/compat_mcp.json and prints the table that bench/results/compat.md
# (MCP section) quotes. Bounded to a few minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${PARLEY_BINARY:-$PWD/build/parley}"
OUT_JSON=bench/results/compat_mcp.json
SOURCES="${COMPAT_BENCH_SOURCES:-200}"
ROUNDS="${COMPAT_BENCH_ROUNDS:-6}"
PER_ROUND="${COMPAT_BENCH_REQUESTS:-1000}"
TMP="$(mktemp -d /tmp/parley-bench-compat-mcp-XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p bench/results

export PARLEY_DATA_DIR="$TMP/data"
admin() { "$BIN" admin "$@"; }
account=$(admin account create --name Bench --plan enterprise | jq -r .id)
admin account set-limits "$account" '{"messagesPerMonth": 1000000000, "trainingCharacters": 1000000000}' >/dev/null
agent=$(admin agent create --account "$account" --name Bench --settings '{"showSources": true}' | jq -r .id)
key=$(admin key create --account "$account" --name bench | jq -r .key)

: > "$TMP/server.log"
PARLEY_RATE_LIMIT_PER_MINUTE=1000000000 PARLEY_AGENT_REPLIES_PER_HOUR=1000000000 \
  "$BIN" serve --listen 127.0.0.1:0 2>"$TMP/server.log" &
SERVER_PID=$!
port=""
for _ in $(seq 1 300); do
  port=$(grep -o '"msg":"listening","address":"[^"]*:[0-9]*"' "$TMP/server.log" | grep -o '[0-9]*"$' | tr -d '"' || true)
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "$port" ] || { echo "server did not start"; cat "$TMP/server.log"; exit 1; }
base="http://127.0.0.1:$port"
auth="Authorization: Bearer $key"

topics=(shipping returns refunds warranty payment invoices delivery tracking accounts passwords)
for i in $(seq 1 "$SOURCES"); do
  t=${topics[$((i % ${#topics[@]}))]}
  body=$(printf '{"type":"text","title":"%s guide %d","content":"Our %s policy number %d applies to every order. Customers asking about %s get an answer within one day. The %s team works from Monday to Friday."}' \
    "$t" "$i" "$t" "$i" "$t" "$t")
  curl -s -o /dev/null -H "$auth" -H 'Content-Type: application/json' -d "$body" "$base/api/v1/agents/$agent/sources"
done
for _ in $(seq 1 600); do
  [ "$(curl -s -H "$auth" "$base/api/v1/agents/$agent/sources" | jq -r '.training.done')" = "true" ] && break
  sleep 0.1
done

python3 - "$port" "$SERVER_PID" "$key" "$agent" "$ROUNDS" "$PER_ROUND" "$SOURCES" "$OUT_JSON" <<'PY'
import http.client, json, os, statistics, sys
port, pid, key, agent, rounds, per_round, sources, out = sys.argv[1:]
pid, rounds, per_round = int(pid), int(rounds), int(per_round)
tick = os.sysconf("SC_CLK_TCK")
questions = ["How do returns work?", "What is your shipping policy?", "When does the payment team work?",
             "Tell me about warranty", "How are invoices sent?", "Can I track my delivery?"]
headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json",
           "Accept": "application/json, text/event-stream"}

def cpu_seconds():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick  # utime + stime, all threads

def chat(conn, q, i):
    conn.request("POST", f"/api/v1/agents/{agent}/chat", json.dumps({"message": q}), headers)
    r = conn.getresponse(); body = r.read()
    assert r.status == 200, body
    return json.loads(body)["reply"]

def mcp(conn, q, i):
    msg = {"jsonrpc": "2.0", "id": i, "method": "tools/call",
           "params": {"name": "ask_agent", "arguments": {"agentId": agent, "message": q}}}
    conn.request("POST", "/mcp", json.dumps(msg), headers)
    r = conn.getresponse(); body = r.read()
    assert r.status == 200, body
    result = json.loads(body)["result"]
    assert result["isError"] is False, body
    return result["structuredContent"]["reply"]

forms = {"chat": chat, "mcp": mcp}
per_reply = {name: [] for name in forms}
conn = http.client.HTTPConnection("127.0.0.1", int(port))
# Warm-up: caches, the index, the connection.
for name, fn in forms.items():
    for i in range(100): fn(conn, questions[i % len(questions)], i)
# Same replies from both forms.
assert chat(conn, questions[0], 0) == mcp(conn, questions[0], 0)
for r in range(rounds):
    order = ["chat", "mcp"] if r % 2 == 0 else ["mcp", "chat"]
    for name in order:
        before = cpu_seconds()
        for i in range(per_round): forms[name](conn, questions[i % len(questions)], i)
        per_reply[name].append((cpu_seconds() - before) / per_round * 1e6)
result = {name: {"median_us": statistics.median(v), "rounds_us": [round(x, 1) for x in v]}
          for name, v in per_reply.items()}
overhead = result["mcp"]["median_us"] / result["chat"]["median_us"] - 1
result["mcp_overhead_percent"] = round(overhead * 100, 1)
result["setup"] = {"sources": int(sources), "rounds": rounds, "requests_per_round": per_round}
json.dump(result, open(out, "w"), indent=2)
print(f"| form | server CPU per reply (median of {rounds} rounds of {per_round}) |")
print("|---|---|")
print(f"| POST /api/v1/agents/{{agentId}}/chat (JSON) | {result['chat']['median_us']:.0f} µs |")
print(f"| POST /mcp tools/call ask_agent | {result['mcp']['median_us']:.0f} µs |")
print(f"| MCP overhead | {result['mcp_overhead_percent']:+.1f}% |")
PY
