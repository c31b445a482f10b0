// Hybrid retrieval micro benchmarks: the vector half's search over one agent with 10,000 chunks
// of dimension 256 and 1536 (one pass of dot products, top 20 kept), the memory the VectorSet
// holds per vector, and the reciprocal-rank fusion of two rankings of 20.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "knowledge/chunk_embedding.h"
#include "knowledge/rank_fusion.h"
#include "knowledge/vector_set.h"

namespace parley {
namespace {

std::vector<float> random_vector(std::mt19937& rng, size_t dims) {
  std::normal_distribution<float> d(0, 1);
  std::vector<float> v(dims);
  for (auto& x : v) x = d(rng);
  return v;
}

// One source per chunk, each with a one-sentence text of about 200 bytes.
VectorSet make_set(size_t chunks, size_t dims) {
  std::mt19937 rng(42);
  VectorSet set;
  for (size_t i = 0; i < chunks; ++i) {
    VectorSource s{"src_" + std::to_string(i), "text", std::nullopt, std::nullopt,
                   "Chunk number " + std::to_string(i) + std::string(180, 'x') + "."};
    ChunkVector v{s.id, 0, embedding_hash(embedding_input(s.title, s.content)),
                  random_vector(rng, dims)};
    set.add(std::move(s), {v});
  }
  set.shrink_to_fit();  // as VectorIndex leaves a loaded set
  return set;
}

void BM_VectorSearch(benchmark::State& state) {
  const auto chunks = static_cast<size_t>(state.range(0));
  const auto dims = static_cast<size_t>(state.range(1));
  VectorSet set = make_set(chunks, dims);
  std::mt19937 rng(7);
  auto query = random_vector(rng, dims);
  for (auto _ : state) benchmark::DoNotOptimize(set.search(query, 20));
  state.counters["bytes_per_vector"] = static_cast<double>(set.memory_bytes()) / chunks;
  state.counters["matrix_bytes_per_vector"] = static_cast<double>(dims * sizeof(float));
}
BENCHMARK(BM_VectorSearch)->Args({10000, 256})->Args({10000, 1536})->Unit(benchmark::kMillisecond);

void BM_RankFusion(benchmark::State& state) {
  std::vector<RetrievedChunk> a, b;
  for (uint32_t i = 0; i < 20; ++i) {
    RetrievedChunk c;
    c.source_id = "src_" + std::to_string(i % 7);
    c.chunk = i;
    c.text = std::string(800, 'x');
    a.push_back(c);
    c.chunk = 19 - i;
    b.push_back(c);
  }
  for (auto _ : state) benchmark::DoNotOptimize(fuse_rankings({&a, &b}, 5));
}
BENCHMARK(BM_RankFusion)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace parley
