#!/usr/bin/env bash
# Long fuzzing runs: each target of tests/fuzz for FUZZ_SECONDS (default 600) in turn, from its
# committed corpus plus what earlier runs found (build-asan/fuzz/work/NAME). Crashes are written
# to build-asan/fuzz/NAME-crash-*; reproduce one with `build-asan/fuzz/NAME_fuzz FILE`, and once it
# is fixed, add the file to tests/fuzz/corpus/NAME so that `make test` replays it.
# FUZZ_TARGETS="http_request cursor" runs only those.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-600}"
if [ ! -f build-asan/build.ninja ]; then cmake --preset asan >/dev/null; fi
cmake --build build-asan -j "$(nproc)"
if [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi
targets="${FUZZ_TARGETS:-$(ls tests/fuzz/corpus)}"
status=0
for name in $targets; do
  work="build-asan/fuzz/work/$name"
  mkdir -p "$work"
  echo "fuzz: $name for ${seconds}s"
  if ! "build-asan/fuzz/${name}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="build-asan/fuzz/$name-" "$work" "tests/fuzz/corpus/$name" \
      2>"build-asan/fuzz/$name.log"; then
    echo "fuzz: $name FAILED; see build-asan/fuzz/$name.log"
    tail -n 60 "build-asan/fuzz/$name.log"
    status=1
  else
    grep -E '^stat::(number_of_executed_units|new_units_added)' "build-asan/fuzz/$name.log" || true
  fi
done
exit "$status"
