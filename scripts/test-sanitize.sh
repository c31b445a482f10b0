#!/usr/bin/env bash
# Builds the sanitizer preset (clang, AddressSanitizer + UBSan, coverage for the fuzzers; see
# CMakePresets.json) in build-asan/ and runs the whole suite there: unit and end-to-end tests
# against build-asan/parley, a replay of each committed fuzz corpus and a short fuzzing run of each
# target. Every sanitizer report, from a test or from a server process a test started, is
# written under build-asan/sanitizer-reports/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build-asan/build.ninja ]; then cmake --preset asan >/dev/null; fi
cmake --build build-asan -j "$(nproc)"

reports="$PWD/build-asan/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports"
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:strict_init_order=1:log_path=$reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan"
if [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
  export PATH="/usr/lib/llvm-14/bin:$PATH"
fi
# The end-to-end tests start their own servers on port 0 with their own data directories, so
# tests run two at a time.
status=0
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" || status=$?

shopt -s nullglob
found=("$reports"/*)
if [ ${#found[@]} -gt 0 ]; then
  echo "test-sanitize: ${#found[@]} sanitizer report(s):"
  for f in "${found[@]}"; do
    echo "==> $f"
    head -n 80 "$f"
  done
  exit 1
fi
exit "$status"
