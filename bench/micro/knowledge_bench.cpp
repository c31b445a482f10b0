// Knowledge micro benchmarks: training throughput (chunk, tokenise, index; characters per second
// on one core) and retrieval latency over one agent with 10,000 sources / 10 million characters
// (p50/p99 per query), with the index's memory per million characters. The text is synthetic:
// sentences of words drawn from a Zipf distribution over a 30,000-word vocabulary, as in prose.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "knowledge/agent_index.h"
#include "knowledge/index_form.h"
#include "knowledge/term_vocabulary.h"
#include "text/normalizer.h"

namespace parley {
namespace {

class ZipfText {
 public:
  explicit ZipfText(uint32_t seed) : rng_(seed) {
    std::mt19937 words_rng(7);
    const char* letters = "etaoinshrdlcumwfgypbvkjxqz";
    for (int i = 0; i < 30000; ++i) {
      std::string w;
      size_t len = 2 + words_rng() % 9;
      for (size_t j = 0; j < len; ++j) w.push_back(letters[std::min<size_t>(words_rng() % 26, words_rng() % 26)]);
      vocabulary_.push_back(w);
    }
    double sum = 0;
    for (int i = 0; i < 30000; ++i) cumulative_.push_back(sum += 1.0 / (i + 1));
  }
  const std::string& word() {
    double r = std::uniform_real_distribution<double>(0, cumulative_.back())(rng_);
    return vocabulary_[std::lower_bound(cumulative_.begin(), cumulative_.end(), r) - cumulative_.begin()];
  }
  std::string text(size_t chars) {
    std::string out;
    while (out.size() < chars) {
      size_t n = 8 + rng_() % 10;
      for (size_t i = 0; i < n; ++i) {
        std::string w = word();
        if (i == 0) w[0] = static_cast<char>(w[0] - 32);
        out += w;
        out += i + 1 == n ? ". " : " ";
      }
      if (rng_() % 6 == 0) out += "\n\n";
    }
    out.resize(chars);
    return out;
  }
  std::string query() {
    std::string q;
    size_t n = 3 + rng_() % 4;
    for (size_t i = 0; i < n; ++i) q += word() + " ";
    return q + "?";
  }

 private:
  std::mt19937 rng_;
  std::vector<std::string> vocabulary_;
  std::vector<double> cumulative_;
};

IndexedSource text_source(size_t i, std::string content) {
  IndexedSource s;
  s.id = "src_" + std::to_string(i);
  s.type = "text";
  s.title = "Source " + std::to_string(i);
  s.content = std::move(content);
  return s;
}

void BM_KnowledgeTrainingThroughput(benchmark::State& state) {
  ZipfText gen(1);
  std::vector<std::string> docs;
  for (int i = 0; i < 2000; ++i) docs.push_back(gen.text(1000));  // 2 MB
  size_t bytes = 0;
  for (auto _ : state) {
    AgentIndex index;
    for (size_t i = 0; i < docs.size(); ++i) index.add(text_source(i, docs[i]));
    benchmark::DoNotOptimize(index.live_chunks());
    for (const auto& d : docs) bytes += d.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.counters["chars_per_s"] = benchmark::Counter(static_cast<double>(bytes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_KnowledgeTrainingThroughput)->Unit(benchmark::kMillisecond);

void BM_KnowledgeTokenizeNonAscii(benchmark::State& state) {
  std::string text;
  while (text.size() < 1'000'000) text += "Über die Straße gehen Bäckerinnen und Müller früh. 抹茶ラテは有機抹茶で作ります。 ";
  for (auto _ : state) {
    size_t n = 0;
    Analyzer::english().for_each_word(text, [&](const AnalyzedWord&) { ++n; });
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_KnowledgeTokenizeNonAscii)->Unit(benchmark::kMillisecond);

// A question's unknown word against a knowledge of 250,000 product codes ("sku2024000123"): the
// codes share their letters and length, so every one is an edit-distance candidate.
void BM_SpellingCorrectionAmongManyCodes(benchmark::State& state) {
  TermVocabulary vocabulary(Analyzer::english(), {});
  std::vector<TermToken> tokens;
  std::vector<uint32_t> groups;
  std::string text;
  for (int i = 0; i < 250'000; ++i) {
    text += "Item sku" + std::to_string(2024000000 + i) + " ships in 4 days. ";
    if (text.size() > 100'000) {
      vocabulary.learn(text, tokens, groups);
      text.clear();
    }
  }
  vocabulary.learn(text, tokens, groups);
  for (auto _ : state) {
    auto c = vocabulary.correct("sku20xyz00000", [](uint32_t) { return true; });
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_SpellingCorrectionAmongManyCodes)->Unit(benchmark::kMillisecond);

// One agent, 10,000 sources of 1,000 characters each.
const AgentIndex& big_index() {
  static AgentIndex* index = [] {
    auto* idx = new AgentIndex();
    ZipfText gen(2);
    for (size_t i = 0; i < 10000; ++i) idx->add(text_source(i, gen.text(1000)));
    idx->shrink_to_fit();  // as the node does once training is over (KnowledgeIndex::persist)
    return idx;
  }();
  return *index;
}

// Wall and CPU percentiles of `query` over 2,000 generated questions on the 10 M character index.
template <typename Query>
void measure_queries(benchmark::State& state, Query query) {
  const AgentIndex& index = big_index();
  ZipfText gen(3);
  std::vector<std::string> queries;
  for (int i = 0; i < 2000; ++i) queries.push_back(gen.query());
  // Wall time per query, and this thread's CPU time (which leaves out time the machine gave to
  // other processes: the bench host is shared).
  std::vector<double> wall_us, cpu_us;
  size_t i = 0;
  for (auto _ : state) {
    timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    auto start = std::chrono::steady_clock::now();
    query(index, queries[i++ % queries.size()]);
    auto end = std::chrono::steady_clock::now();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    wall_us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    cpu_us.push_back(static_cast<double>(c1.tv_sec - c0.tv_sec) * 1e6 + static_cast<double>(c1.tv_nsec - c0.tv_nsec) / 1e3);
  }
  auto pct = [](std::vector<double>& v, double p) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
  };
  state.counters["p50_us"] = pct(wall_us, 0.50);
  state.counters["p99_us"] = pct(wall_us, 0.99);
  state.counters["cpu_p99_us"] = pct(cpu_us, 0.99);
  state.counters["index_MB_per_M_chars"] = static_cast<double>(index.memory_bytes()) / 1e6 / 10.0;
}

// Top 5 chunks: what the LLM engine receives.
void BM_KnowledgeSearch10MChars(benchmark::State& state) {
  measure_queries(state, [](const AgentIndex& index, const std::string& q) {
    auto hits = index.search(q, 5);
    benchmark::DoNotOptimize(hits);
  });
}
BENCHMARK(BM_KnowledgeSearch10MChars)->Unit(benchmark::kMicrosecond);

// The built-in engine's answer: candidates, sentences, Q&A pairs and the confidence.
void BM_KnowledgeAnswer10MChars(benchmark::State& state) {
  measure_queries(state, [](const AgentIndex& index, const std::string& q) {
    auto answer = index.answer(q, 3);
    benchmark::DoNotOptimize(answer);
  });
}
BENCHMARK(BM_KnowledgeAnswer10MChars)->Unit(benchmark::kMicrosecond);

// One agent of 1,000 sources / 1 million characters: the size of its index in memory and of its
// persisted form (knowledge/index_form.h), and what writing and reading the form take.
const AgentIndex& one_million_index() {
  static AgentIndex* index = [] {
    auto* idx = new AgentIndex();
    ZipfText gen(4);
    for (size_t i = 0; i < 1000; ++i) idx->add(text_source(i, gen.text(1000)));
    idx->shrink_to_fit();
    return idx;
  }();
  return *index;
}

void BM_KnowledgeFormWrite1MChars(benchmark::State& state) {
  const AgentIndex& index = one_million_index();
  size_t bytes = 0;
  for (auto _ : state) {
    std::string form = index_form(index);
    bytes = form.size();
    benchmark::DoNotOptimize(form);
  }
  state.counters["form_MB_per_M_chars"] = static_cast<double>(bytes) / 1e6;
  state.counters["index_MB_per_M_chars"] = static_cast<double>(index.memory_bytes()) / 1e6;
}
BENCHMARK(BM_KnowledgeFormWrite1MChars)->Unit(benchmark::kMillisecond);

void BM_KnowledgeFormRead1MChars(benchmark::State& state) {
  const std::string form = index_form(one_million_index());
  size_t loaded_bytes = 0;
  for (auto _ : state) {
    auto back = index_from_form(form, KnowledgeSettings{});
    loaded_bytes = back ? back->memory_bytes() : 0;
    benchmark::DoNotOptimize(back);
  }
  state.counters["loaded_index_MB_per_M_chars"] = static_cast<double>(loaded_bytes) / 1e6;
}
BENCHMARK(BM_KnowledgeFormRead1MChars)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace parley
