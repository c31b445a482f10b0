// The retrieval engine's own cost per reply (Q&A answer, snippet answer with sentence picking,
// fallback, follow-ups) over a retriever that returns fixed results, so the index is not
// measured here; and contact-detail extraction from a user message.
#include <benchmark/benchmark.h>

#include "core/clock.h"
#include "engine/contact_details.h"
#include "engine/retrieval_engine.h"

namespace parley {
namespace {

class FixedRetriever final : public Retriever {
 public:
  std::vector<RetrievedChunk> chunks;
  std::vector<QaMatch> qa;
  std::vector<RetrievedChunk> search(std::string_view, std::string_view, size_t) const override {
    return chunks;
  }
  std::vector<QaMatch> match_qa(std::string_view, std::string_view, size_t) const override {
    return qa;
  }
};

FixedRetriever snippet_knowledge() {
  FixedRetriever r;
  std::string text;
  for (int i = 0; i < 12; ++i)
    text += "Our returns policy number " + std::to_string(i) +
            " applies to every order shipped in the country. ";
  text +=
      "Returns are accepted within 30 days of delivery and refunds go back to the original card.";
  r.chunks = {{"src_1", "text", "Returns", std::nullopt, text, 3.2},
              {"src_2", "text", "Shipping", std::nullopt, text, 2.1}};
  r.qa = {{"src_q", "How long does shipping take?", "Two to three days.", 0.3}};
  return r;
}

void run(benchmark::State& state, const FixedRetriever& knowledge, bool follow_ups) {
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
  FixedRetriever k;
  k.qa = {{"src_q", "How do refunds work?", "Refunds go back to the original card within 5 days.",
           1.0}};
  run(state, k, false);
}
void BM_RetrievalFallback(benchmark::State& state) { run(state, FixedRetriever{}, false); }

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
