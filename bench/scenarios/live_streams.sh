#!/usr/bin/env bash
# Live streams held idle: 1,000 widget conversation streams (`/widget/v1/conversations/{id}/events`,
# 3 per conversation, each from its own client address) open on one node with nothing changing,
# and the CPU the node spends holding them over an idle window; then a team member's takeover
# and reply, timed until every stream of that conversation has it. Run against the current build
# and, when BEFORE_BINARY names one (a build of an earlier commit), that binary too.
# Writes bench/results/live_streams.md. Bounded: about 2 minutes per binary.
set -euo pipefail
source bench/lib/common.sh
STREAMS="${BENCH_STREAMS:-1000}"
IDLE_SECONDS="${BENCH_IDLE_SECONDS:-30}"
out_md=bench/results/live_streams.md
ulimit -n 8192

measure() {  # BINARY LABEL [STREAMS]: prints a table row
  local binary=$1 streams=${3:-$STREAMS}
  PARLEY="$binary"
  bench_data live_streams
  local account agent token port
  account=$(admin account create --name Bench --plan enterprise | json_field '["id"]')
  admin account set-limits "$account" '{"messagesPerMonth": 100000000}' >/dev/null
  agent=$(admin agent create --account "$account" --name Shop \
    --settings '{"allowedDomains": ["example.com"], "liveChat": true, "messagesPerVisitor": 1000000}' |
    json_field '["id"]')
  token=$(admin member create --account "$account" --email bench@example.com --role editor --name "Sam Bench" |
    json_field '["token"]')
  port=$(free_port)
  start_parley "$BENCH_DATA" "$port" 0 --threads 1 --client-address-header X-Forwarded-For \
    --agent-replies-per-hour 100000000 --widget-requests-per-minute-per-address 100000000 \
    --widget-messages-per-minute-per-address 100000000
  python3 bench/tools/idle_streams.py --port "$port" --pid "$PARLEY_PID" --agent "$agent" --token "$token" \
    --streams "$streams" --idle "$IDLE_SECONDS" --label "$2"
  stop_pid "$PARLEY_PID"
  PARLEY_PID=
  rm -rf "$BENCH_DATA"
}

rows="$(measure "$PWD/build/parley" "this build, no streams (the node alone)" 0)
$(measure "$PWD/build/parley" "this build")"
if [ -n "${BEFORE_BINARY:-}" ]; then rows="$(measure "$BEFORE_BINARY" "before (${BEFORE_LABEL:-earlier build})")
$rows"; fi

{
  echo "# Live streams held idle"
  echo
  echo "\`bench/scenarios/live_streams.sh\` on $(nproc) shared cores, $(date -u +%Y-%m-%d). One node on"
  echo "SQLite, \`--threads 1\`, pinned to CPU 0; $STREAMS widget conversation streams (3 per"
  echo "conversation, each from its own client address through \`X-Forwarded-For\`) opened, then"
  echo "${IDLE_SECONDS} s with nothing changing: the node's CPU over that window (user + system, from"
  echo "/proc), as a share of one core. Then a team member takes one conversation over and replies:"
  echo "the time from the reply's request until all 3 of its streams have the reply. Target: under 2%"
  echo "of a core for 1,000 idle streams. The first row is the same node with no stream open: what"
  echo "its other threads (workers, the group commit, the checkpointer) use when idle; the streams'"
  echo "own cost is the difference."
  echo
  echo "| binary | streams | idle CPU, % of a core | CPU per stream per second | takeover reply reaches the streams |"
  echo "|---|---|---|---|---|"
  echo "$rows"
} >"$out_md"
cat "$out_md"
