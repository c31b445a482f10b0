// What the OpenAI-compatible front adds to a chat reply, measured apart from the turn both
// endpoints share: reading the request body into the chat request and writing the answer, for
// POST /api/v1/agents/{id}/chat (the chat body, the spec's JSON reply) and for
// POST /openai/v1/chat/completions (OpenAI's body, the chat.completion object, and the chunk
// stream of a two-piece reply). bench/results/compat.md puts these beside the CPU of a whole reply.
#include <benchmark/benchmark.h>

#include "api/openai_answer.h"
#include "api/openai_request.h"
#include "core/json.h"
#include "views/chat_json.h"

namespace parley {
namespace {

ChatReply sample_reply() {
  ChatReply r;
  r.reply = "The returns team works from Monday to Friday. Returns are accepted within 30 days.";
  r.conversation_id = "cnv_ptz4SPSeWQNRKPcfoL72VU";
  r.session_id = "svcapi_qRmB1vjRMkbaAs7j1HN4B8";
  r.blocks.sources.push_back({"src_1", std::string("returns guide 1"), std::nullopt});
  r.blocks.follow_ups = {"How do refunds work?", "Do you ship abroad?", "Where is my order?"};
  return r;
}

void BM_ChatEndpointBodyAndJson(benchmark::State& state) {
  const std::string body = R"({"message":"How do returns work?"})";
  const ChatReply reply = sample_reply();
  for (auto _ : state) {
    auto doc = parse_json_object(body);
    FieldReader f(*doc);
    ChatRequest r;
    r.agent_id = "agt_VscFYirvu1bQ5nkLF5vDAY";
    r.message = *f.required_string("message");
    auto conversation = f.optional_string("conversationId");
    auto session = f.optional_string("sessionId");
    auto stream = f.optional_bool("stream");
    benchmark::DoNotOptimize(r);
    JsonWriter w;
    write_chat_reply_json(w, reply);
    benchmark::DoNotOptimize(w.str());
  }
}
BENCHMARK(BM_ChatEndpointBodyAndJson);

CompletionMeta meta() {
  return {"chatcmpl-OYFtCLHjSopYjoK8r53HbI44", 1795678719, "agt_VscFYirvu1bQ5nkLF5vDAY", false, 5};
}

void BM_OpenAiBodyAndJson(benchmark::State& state) {
  const std::string body =
      R"({"model":"agt_VscFYirvu1bQ5nkLF5vDAY","messages":[{"role":"user","content":"How do returns work?"}]})";
  const ChatReply reply = sample_reply();
  for (auto _ : state) {
    auto doc = parse_json_object(body);
    auto parsed = parse_openai_chat(*doc);
    benchmark::DoNotOptimize(parsed);
    OpenAiAnswerWriter writer(meta());
    benchmark::DoNotOptimize(writer.json(reply));
  }
}
BENCHMARK(BM_OpenAiBodyAndJson);

// The same request with a history of 10 earlier messages, as a client that resends it sends.
void BM_OpenAiBodyWithHistoryAndJson(benchmark::State& state) {
  std::string body = R"({"model":"agt_VscFYirvu1bQ5nkLF5vDAY","user":"customer-4711","messages":[)";
  for (int i = 0; i < 10; ++i)
    body += R"({"role":")" + std::string(i % 2 ? "assistant" : "user") +
            R"(","content":"An earlier message of the conversation, number )" + std::to_string(i) +
            R"(."},)";
  body += R"({"role":"user","content":"How do returns work?"}]})";
  const ChatReply reply = sample_reply();
  for (auto _ : state) {
    auto doc = parse_json_object(body);
    auto parsed = parse_openai_chat(*doc);
    benchmark::DoNotOptimize(parsed);
    OpenAiAnswerWriter writer(meta());
    benchmark::DoNotOptimize(writer.json(reply));
  }
}
BENCHMARK(BM_OpenAiBodyWithHistoryAndJson);

// The event stream of a two-piece reply: the spec's (meta, two text events, blocks, done) and
// OpenAI's (role chunk, two content chunks, finish chunk with `parley`, usage chunk, [DONE]).
void stream_events(benchmark::State& state, const ChatAnswerWriter& writer) {
  const ChatReply reply = sample_reply();
  for (auto _ : state) {
    size_t bytes = 0;
    bytes += writer.text("The returns team works from Monday to Friday. ").size();
    bytes += writer.text("Returns are accepted within 30 days.").size();
    bytes += writer.closing(reply).size();
    benchmark::DoNotOptimize(bytes);
  }
}

void BM_SpecEventStream(benchmark::State& state) { stream_events(state, ChatAnswerWriter()); }
BENCHMARK(BM_SpecEventStream);

void BM_OpenAiChunkStream(benchmark::State& state) {
  CompletionMeta m = meta();
  m.include_usage = true;
  stream_events(state, OpenAiAnswerWriter(m));
}
BENCHMARK(BM_OpenAiChunkStream);

}  // namespace
}  // namespace parley
