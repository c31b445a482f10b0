#!/usr/bin/env bash
# What an Idempotency-Key costs a write: POST /api/v1/agents/{id}/contacts (a new contact each
# request) without the header and with a new key on every request (each claims its key and keeps
# its answer), on SQLite, one node; rounds alternate the two. Target: < 10% more CPU per request.
# Writes bench/results/idempotency.md and .json.
set -euo pipefail
source bench/lib/common.sh
DURATION="${BENCH_DURATION:-8s}"
ROUNDS="${BENCH_ROUNDS:-5}"
out_md=bench/results/idempotency.md
out_json=bench/results/idempotency.json

BENCH_DATA=$(mktemp -d "$BENCH_TMP/idempotency-XXXXXX")
cleanup() {
  [ -n "${PARLEY_PID:-}" ] && stop_pid "$PARLEY_PID"
  rm -rf "$BENCH_DATA"
}
trap cleanup EXIT
account=$(admin account create --name Bench --plan enterprise | json_field '["id"]')
agents=""
for _ in $(seq 1 16); do
  agents+="$(admin agent create --account "$account" --name Bench | json_field '["id"]'),"
done
key=$(admin key create --account "$account" --name bench | json_field '["key"]')
port=$(free_port)
start_parley "$BENCH_DATA" "$port" "" --rate-limit-per-minute 1000000000

lua="$BENCH_TMP/idempotency.lua"
cat >"$lua" <<'LUA'
-- A new contact each request, spread over the agents; KEYED=1 adds a new Idempotency-Key.
local counter = 0
-- A seed per wrk run (SEED), so no run repeats another's keys or external ids.
local seed = os.getenv("SEED")
local agents = {}
for id in string.gmatch(os.getenv("AGENTS"), "[^,]+") do agents[#agents + 1] = id end
local keyed = os.getenv("KEYED") == "1"
request = function()
  counter = counter + 1
  local h = {}
  for k, v in pairs(wrk.headers) do h[k] = v end
  h["Content-Type"] = "application/json"
  if keyed then h["Idempotency-Key"] = seed .. "-" .. counter end
  return wrk.format("POST", "/api/v1/agents/" .. agents[counter % #agents + 1] .. "/contacts", h,
    '{"external_id":"' .. seed .. '-' .. counter .. '-' .. (keyed and "k" or "p") .. '","name":"Bench"}')
end
LUA

rows=()
for round in $(seq 1 "$ROUNDS"); do
  for keyed in 0 1; do
    # Each measure gets fresh external ids (a new seed per wrk run).
    SEED="w$round$keyed$RANDOM$RANDOM" KEYED=$keyed AGENTS=${agents%,} wrk_run "$BENCH_TMP/idem-warm.txt" -t1 -c16 -d1s -s "$lua" \
      -H "Authorization: Bearer $key" "http://127.0.0.1:$port"
    t0=$(cpu_ticks "$PARLEY_PID")
    SEED="r$round$keyed$RANDOM$RANDOM" KEYED=$keyed AGENTS=${agents%,} wrk_run "$BENCH_TMP/idem-run.txt" -t1 -c16 -d"$DURATION" -s "$lua" \
      -H "Authorization: Bearer $key" "http://127.0.0.1:$port"
    t1=$(cpu_ticks "$PARLEY_PID")
    n=$(wrk_field "$BENCH_TMP/idem-run.txt" requests)
    non2xx=$(wrk_field "$BENCH_TMP/idem-run.txt" non2xx)
    [ "$non2xx" = "0" ] || echo "warning: $non2xx answers were not 2xx" >&2
    cpu=$(python3 -c "print('%.1f' % (($t1 - $t0) / $(clk_tck) * 1e6 / $n))")
    rows+=("$round|$keyed|$(wrk_field "$BENCH_TMP/idem-run.txt" rps)|$(wrk_field "$BENCH_TMP/idem-run.txt" p99)|$cpu")
    echo "round $round, key $keyed: $(wrk_field "$BENCH_TMP/idem-run.txt" rps) r/s, $cpu µs CPU/request"
  done
done

python3 - "$out_md" "$out_json" "$DURATION" "${rows[@]}" <<'PY'
import json, statistics, sys
out_md, out_json, duration = sys.argv[1:4]
rows = [r.split("|") for r in sys.argv[4:]]
def med(keyed, col):
    return statistics.median(float(r[col]) for r in rows if r[1] == keyed)
plain, keyed = {"rps": med("0", 2), "p99_ms": med("0", 3), "cpu_us": med("0", 4)}, {"rps": med("1", 2), "p99_ms": med("1", 3), "cpu_us": med("1", 4)}
extra = (keyed["cpu_us"] / plain["cpu_us"] - 1) * 100
with open(out_md, "w") as f:
    f.write("# Idempotency-Key on a write\n\n")
    f.write(f"POST contacts (a new contact each request, 16 agents), SQLite, one node with its defaults; wrk with 16\n"
            f"connections for {duration}, {len(rows) // 2} rounds alternating the two cases (medians). With a key: a new\n"
            f"Idempotency-Key on every request, so each one claims its key and keeps its answer.\n\n")
    f.write("| case | requests/s | p99 ms | parley CPU µs/request |\n|---|---|---|---|\n")
    f.write(f"| without Idempotency-Key | {plain['rps']:.0f} | {plain['p99_ms']:.2f} | {plain['cpu_us']:.1f} |\n")
    f.write(f"| with a new Idempotency-Key | {keyed['rps']:.0f} | {keyed['p99_ms']:.2f} | {keyed['cpu_us']:.1f} |\n\n")
    f.write(f"CPU per request with a key: {extra:+.1f}% (target: under +10%).\n")
json.dump({"plain": plain, "keyed": keyed, "extra_cpu_percent": round(extra, 1), "rounds": rows}, open(out_json, "w"), indent=2)
print(open(out_md).read())
PY
