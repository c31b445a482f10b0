#!/usr/bin/env bash
# make bench: every benchmark scenario in bench/scenarios/ (each writes bench/results/<name>.md
# and .json), then the Google Benchmark micro benchmarks. `bench/run.sh NAME…` runs only those
# scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
export PARLEY_BINARY="$PWD/build/parley"
# The load tools and the micro benchmarks are not part of the default build (make test does not
# need them); they are built here.
cmake --build build -j "$(nproc)" --target bench_tools
mkdir -p bench/results bench/results/tmp
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
  for f in bench/scenarios/*.sh; do scenarios+=("$(basename "$f" .sh)"); done
fi
for s in "${scenarios[@]}"; do
  echo "== bench: $s"
  bash "bench/scenarios/$s.sh"
done
if [ -x build/parley_micro_bench ] && [ $# -eq 0 ]; then
  echo "== bench: micro"
  build/parley_micro_bench --benchmark_out=bench/results/micro.json --benchmark_out_format=json \
    --benchmark_min_time=0.2 | tee bench/results/micro.txt
fi
echo "results in bench/results/"
