# Shared helpers for bench scenarios: free ports, starting parley on a temporary data dir, CPU
# time of a process, and wrk output parsing. Sourced, not run.

BENCH_TMP="${BENCH_TMP:-$PWD/bench/results/tmp}"
mkdir -p "$BENCH_TMP"
PARLEY="${PARLEY_BINARY:-$PWD/build/parley}"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# cpu_ticks PID: user+system clock ticks the process has used.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
clk_tck() { getconf CLK_TCK; }

# rss_kb PID
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

# start_parley DATA_DIR PORT [CPU] [extra serve args...]: starts the server (pinned to CPU when
# given), waits until it answers /healthz, and sets PARLEY_PID.
start_parley() {
  local dir=$1 port=$2 cpu=${3:-}
  shift 3 || shift $#
  local pin=()
  [ -n "$cpu" ] && pin=(taskset -c "$cpu")
  PARLEY_DATA_DIR="$dir" "${pin[@]}" "$PARLEY" serve --listen "127.0.0.1:$port" "$@" 2>"$dir/server.log" &
  PARLEY_PID=$!
  for _ in $(seq 1 200); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  echo "parley did not start; log:" >&2
  cat "$dir/server.log" >&2
  return 1
}

stop_pid() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null || true; }

admin() { PARLEY_DATA_DIR="$BENCH_DATA" "$PARLEY" admin "$@"; }
json_field() { python3 -c "import sys,json; print(json.load(sys.stdin)$1)"; }

# wrk_run OUT_FILE wrk-args...: runs wrk (pinned to CPU 1 when there are 2+ cores) with latency
# output into OUT_FILE.
wrk_run() {
  local out=$1
  shift
  local pin=()
  [ "$(nproc)" -ge 2 ] && pin=(taskset -c 1)
  "${pin[@]}" wrk --latency "$@" >"$out" 2>&1
}

# wrk_field FILE rps|p50|p99|requests|non2xx: figures from wrk's output (latency in ms).
wrk_field() {
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
what = sys.argv[2]
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s)", v)
    n, u = float(m.group(1)), m.group(2)
    return n / 1000 if u == "us" else n * 1000 if u == "s" else n
if what == "rps":
    print(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
elif what in ("p50", "p99", "p90", "p75"):
    pct = {"p50": "50%", "p75": "75%", "p90": "90%", "p99": "99%"}[what]
    print("%.3f" % ms(re.search(pct.replace("%", r"%") + r"\s+([\d.]+\w+)", text).group(1)))
elif what == "requests":
    print(re.search(r"(\d+) requests in", text).group(1))
elif what == "non2xx":
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    print(m.group(1) if m else 0)
PY
}

# bench_data NAME: a fresh data directory in BENCH_DATA, removed on exit with the server started
# in PARLEY_PID.
bench_data() {
  BENCH_DATA=$(mktemp -d "$BENCH_TMP/$1-XXXXXX")
  trap '[ -n "${PARLEY_PID:-}" ] && stop_pid "$PARLEY_PID"; rm -rf "$BENCH_DATA"' EXIT
}
