// The retrieval engine's cost per reply (Q&A answer, snippet answer with sentence picking,
// fallback, follow-ups) over a small in-memory index, so the answer judging is measured with it;
// and contact-detail extraction from a user message.
#include <benchmark/benchmark.h>

#include "core/clock.h"
#include "engine/contact_details.h"
#include "engine/retrieval_engine.h"
#include "knowledge/memory_retriever.h"

namespace parley {
namespace {

MemoryRetriever snippet_knowledge() {
  MemoryRetriever r;
  std::string text;
  for (int i = 0; i < 12; ++i)
    text += "Our returns policy number " + std::to_string(i) +
            " applies to every order shipped in the country. ";
  text +=
      "Returns are accepted within 30 days of delivery and refunds go back to the original card.";
  r.add({"src_1", "text", "Returns", std::nullopt, text, "", ""});
  r.add({"src_2", "text", "Shipping", std::nullopt, text, "", ""});
  r.add({"src_q", "qa", std::nullopt, std::nullopt, "", "How long does shipping take?", "Two to three days."});
  return r;
}

void run(benchmark::State& state, const MemoryRetriever& knowledge, bool follow_ups) {
  SystemClock clock;
  RetrievalEngine engine(clock, RetrievalOptions{});
  ReplyRequest r;
  r.agent_id = "agt_bench";
  auto settings = std::make_shared<AgentSettings>();
  settings->reply.fallback_message = "Sorry.";
  settings->reply.follow_ups = follow_ups;
  r.settings = settings;
  r.knowledge = &knowledge;
  r.message = "How do refunds work when returns are accepted?";
  r.deadline_ms = clock.now_ms() + 3'600'000;
  size_t bytes = 0;
  for (auto _ : state) {
    auto blocks = engine.reply(r, [&](std::string_view p) {
      bytes += p.size();
      return true;
    });
    benchmark::DoNotOptimize(blocks);
  }
  benchmark::DoNotOptimize(bytes);
}

void BM_RetrievalSnippetReply(benchmark::State& state) { run(state, snippet_knowledge(), false); }
void BM_RetrievalSnippetReplyWithFollowUps(benchmark::State& state) {
  run(state, snippet_knowledge(), true);
}
void BM_RetrievalQaReply(benchmark::State& state) {
  MemoryRetriever k;
  k.add({"src_q", "qa", std::nullopt, std::nullopt, "", "How do refunds work?",
         "Refunds go back to the original card within 5 days."});
  run(state, k, false);
}
void BM_RetrievalFallback(benchmark::State& state) { run(state, snippet_knowledge(), false); }

void BM_FindContactDetails(benchmark::State& state) {
  std::string message =
      "Hello, I bought 2 chargers last week for 40 euros. My email is Ann.Lee@Example.com "
      "and you can call me on +44 20 7946 0958 after 5 pm.";
  for (auto _ : state) benchmark::DoNotOptimize(find_contact_details(message));
}

BENCHMARK(BM_RetrievalSnippetReply);
BENCHMARK(BM_RetrievalSnippetReplyWithFollowUps);
BENCHMARK(BM_RetrievalQaReply);
BENCHMARK(BM_RetrievalFallback);
BENCHMARK(BM_FindContactDetails);

}  // namespace
}  // namespace parley
