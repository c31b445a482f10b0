// Shared fixture of the LLM chat suites: a server whose default provider is a loopback fake
// (FakeLlmServer) and whose hand-off mail goes to a loopback SMTP receiver (FakeSmtpServer),
// with a 1.5-second chat deadline so that a stalling provider is quick to test. One server per
// suite; each test makes its own account and agent.
#pragma once

#include "chat_support.h"
#include "fake_llm_server.h"
#include "fake_smtp_server.h"

namespace parley::e2e {

inline constexpr const char* kOpenAi =
    R"({"engine":"openai","instructions":"You are Polly, a pirate."})";

class LlmChatTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    llm_ = new FakeLlmServer();
    smtp_ = new FakeSmtpServer();
    Env env = unlimited();
    env["PARLEY_LLM_API_KEY"] = "sk-server-secret";
    env["PARLEY_SMTP_URL"] = smtp_->url();
    env["PARLEY_SMTP_FROM"] = "parley@example.com";
    server_ = new Server(env, {"--llm-base-url", llm_->base_url(), "--llm-model", "default-model",
                               "--chat-timeout-ms", "1500"});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete smtp_;
    delete llm_;
  }
  void SetUp() override { llm_->clear_requests(); }

  const Server& s() { return *server_; }
  static void say(const std::vector<std::string>& pieces) {
    std::vector<std::string> chunks;
    for (const auto& p : pieces) chunks.push_back(text_chunk(p));
    chunks.push_back(finish_chunk("stop"));
    llm_->script({{200, "text/event-stream", {sse_body(chunks)}}});
  }
  static Json last_prompt() {
    auto reqs = llm_->requests();
    EXPECT_FALSE(reqs.empty());
    return reqs.empty() ? Json() : Json::parse(reqs.back().body);
  }
  void expect_nothing_stored(const ChatSetup& c) {
    auto counts = agent_counts(s(), c);
    EXPECT_EQ(counts["conversations"], 0) << counts.dump();
    EXPECT_EQ(counts["messages"], 0) << counts.dump();
  }

  static inline Server* server_ = nullptr;
  static inline FakeLlmServer* llm_ = nullptr;
  static inline FakeSmtpServer* smtp_ = nullptr;
};

}  // namespace parley::e2e
