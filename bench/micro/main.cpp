// The micro benchmarks' entry; this program is also the PDF reader of its own child processes
// when a benchmark reads through them (extract/isolated_reader.h).
#include <benchmark/benchmark.h>

#include "extract/isolated_reader.h"

int main(int argc, char** argv) {
  if (parley::is_reader_call(argc, argv)) parley::run_reader(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
