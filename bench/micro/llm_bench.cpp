// LLM engine micro benchmarks: decoding a provider's stream (SSE split into network-sized reads,
// chunk JSON, text deltas handed on) per token, the request body of a prompt with knowledge and a
// 40-message history, and the hand-off phrase match on a chat message.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "engine/completion_stream.h"
#include "engine/openai_client.h"
#include "engine/turn_analysis.h"

namespace parley {
namespace {

std::string token_stream(int tokens) {
  std::string body;
  for (int i = 0; i < tokens; ++i) {
    body += R"(data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m",)"
            R"("choices":[{"index":0,"delta":{"content":" word)" +
            std::to_string(i % 100) +
            R"("},"finish_reason":null}]})"
            "\n\n";
  }
  body += "data: [DONE]\n\n";
  return body;
}

void BM_DecodeStream(benchmark::State& state) {
  const int tokens = 500;
  std::string body = token_stream(tokens);
  const size_t read = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    size_t bytes = 0;
    CompletionAssembler assembler([&](std::string_view piece) {
      bytes += piece.size();
      return true;
    });
    SseParser parser([&](std::string_view data) { return assembler.apply(data); });
    for (size_t off = 0; off < body.size(); off += read) {
      auto r = parser.feed(std::string_view(body).substr(off, read));
      benchmark::DoNotOptimize(r);
    }
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * tokens);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(body.size()));
  state.SetLabel("items = tokens");
}
BENCHMARK(BM_DecodeStream)->Arg(64)->Arg(1460)->Arg(16384);

void BM_RequestBody(benchmark::State& state) {
  CompletionRequest r;
  r.model = "m";
  std::string knowledge(4 * 1200, 'k');
  r.messages.push_back({"system", "Be helpful.\n\n" + knowledge, {}, ""});
  for (int i = 0; i < 40; ++i)
    r.messages.push_back({i % 2 ? "assistant" : "user", std::string(200, 'x'), {}, ""});
  r.messages.push_back({"user", "What are your opening hours?", {}, ""});
  r.tools.push_back({"request_human", "Hand off", R"({"type":"object","properties":{}})"});
  for (auto _ : state) benchmark::DoNotOptimize(completion_request_body(r));
}
BENCHMARK(BM_RequestBody);

// A turn's one analysis and intent pass (engine/turn_analysis.h) on an agent with a button, a
// product, a lead form and booking configured.
void BM_TurnAnalysis(benchmark::State& state) {
  std::string message =
      "Hello, I ordered a blue jacket last week and it still has not arrived; could you tell me "
      "where it is and when it will be delivered to my address?";
  auto settings = std::make_shared<const AgentSettings>(parse_agent_settings(R"({
    "liveChat": true, "saveContactDetails": true,
    "buttons": [{"label": "See pricing", "url": "https://example.com/p", "keywords": ["price"]}],
    "products": [{"name": "Blue Jacket", "url": "https://example.com/j", "keywords": ["coat"]}],
    "leadForm": {}, "booking": {"keywords": ["book a call"]}})"));
  IntentKeywords keywords(settings);
  for (auto _ : state) benchmark::DoNotOptimize(analyze_turn(message, keywords, false));
}
BENCHMARK(BM_TurnAnalysis);

}  // namespace
}  // namespace parley
