// Shared helpers of the OpenAI-compatible suites (/openai/v1): a completion request, the events
// of a streamed one, a trained Q&A pair, and the checks every OpenAI-shaped error passes.
#pragma once

#include <chrono>
#include <thread>

#include "chat_llm_support.h"

namespace parley::e2e {

inline constexpr const char* kCompletions = "/openai/v1/chat/completions";

inline Json user_says(const std::string& text) { return {{"role", "user"}, {"content", text}}; }
inline Json agent_said(const std::string& text) {
  return {{"role", "assistant"}, {"content", text}};
}

inline HttpResponse complete(const Server& s, const std::string& key, const Json& body) {
  return s.post(kCompletions, key, body.dump());
}

// The `data:` payloads of an event stream, in order ("[DONE]" kept as it is).
inline std::vector<std::string> data_lines(const std::string& body) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < body.size()) {
    size_t end = body.find('\n', at);
    if (end == std::string::npos) end = body.size();
    std::string line = body.substr(at, end - at);
    if (line.rfind("data: ", 0) == 0) out.push_back(line.substr(6));
    at = end + 1;
  }
  return out;
}

// The chunks of a stream (every data line but [DONE], parsed).
inline std::vector<Json> chunks_of(const std::string& body) {
  std::vector<Json> out;
  for (const auto& d : data_lines(body))
    if (d != "[DONE]") out.push_back(Json::parse(d));
  return out;
}

// The concatenated delta.content of a stream's chunks.
inline std::string streamed_text(const std::vector<Json>& chunks) {
  std::string text;
  for (const auto& c : chunks) {
    if (c.contains("choices") && !c["choices"].empty() &&
        c["choices"][0]["delta"].contains("content"))
      text += c["choices"][0]["delta"]["content"].get<std::string>();
  }
  return text;
}

// Checks OpenAI's error shape and returns its object.
inline Json openai_error(const HttpResponse& r) {
  Json body = Json::parse(r.body, nullptr, false);
  EXPECT_TRUE(body.is_object() && body.contains("error")) << r.body;
  if (!body.is_object() || !body.contains("error")) return Json::object();
  Json e = body["error"];
  EXPECT_TRUE(e["message"].is_string()) << r.body;
  EXPECT_TRUE(e["type"].is_string()) << r.body;
  EXPECT_TRUE(e.contains("param")) << r.body;
  EXPECT_TRUE(e["code"].is_string()) << r.body;
  return e;
}

// Adds a Q&A pair through the API and waits until the agent is trained on it.
inline void add_trained_qa(const Server& s, const ChatSetup& c, const std::string& question,
                           const std::string& answer) {
  auto added = s.post("/api/v1/agents/" + c.agent + "/sources", c.key,
                      Json{{"type", "qa"}, {"question", question}, {"answer", answer}}.dump());
  ASSERT_EQ(added.status, 201) << added.body;
  for (int i = 0; i < 500; ++i) {
    auto l = s.get("/api/v1/agents/" + c.agent + "/sources", c.key);
    if (l.json()["training"]["done"] == true) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL() << "training did not finish";
}

}  // namespace parley::e2e
