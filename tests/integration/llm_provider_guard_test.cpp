// An agent's own LLM provider through the address guard, with the engine in process, a real
// loopback provider (FakeLlmServer) and a scripted resolver: the host is resolved once per reply
// and every call of the reply is pinned to the address checked then (a later answer, as in DNS
// rebinding, is never used); a name that does not resolve, an internal name or a private address
// is refused unless private targets are allowed, with one message whatever the reason.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "engine/api_actions.h"
#include "engine/openai_engine.h"
#include "fake_llm_server.h"

namespace parley::e2e {
namespace {

// Answers the n-th resolution with the n-th list (the last one repeats); no lists, or an empty
// one: the name does not resolve.
class ScriptedResolver final : public Resolver {
 public:
  explicit ScriptedResolver(std::vector<std::vector<std::string>> answers)
      : answers_(std::move(answers)) {}
  Result<std::vector<IpAddress>> resolve(const std::string&) override {
    std::lock_guard lock(mu_);
    ++calls_;
    if (answers_.empty() || answers_[std::min(calls_, answers_.size()) - 1].empty())
      return ApiError::invalid("does not resolve");
    const auto& answer = answers_[std::min(calls_, answers_.size()) - 1];
    std::vector<IpAddress> out;
    for (const auto& text : answer) out.push_back(*parse_ip(text));
    return out;
  }
  size_t calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::vector<std::string>> answers_;
  size_t calls_ = 0;
};

constexpr const char* kRefused =
    "The agent's llm.baseUrl is refused: it must be an https URL whose host resolves only to "
    "public addresses.";

std::string port_of(const FakeLlmServer& llm) {
  return llm.base_url().substr(llm.base_url().rfind(':') + 1);
}

ReplyRequest reply_request(const std::string& base_url) {
  ReplyRequest r;
  r.agent_id = "agt_guard";
  r.message = "Hello";
  r.settings = std::make_shared<const AgentSettings>(parse_agent_settings(
      nlohmann::json{{"engine", "openai"},
                     {"llm", {{"baseUrl", base_url}, {"model", "agent-model"}}}}
          .dump()));
  return r;
}

TEST(LlmProviderGuard, TheHostIsResolvedOnceAndEveryCallOfTheReplyIsPinned) {
  FakeLlmServer llm;
  // A tool call first, then the text: two provider calls in one reply.
  llm.script({{200,
               "text/event-stream",
               {sse_body({tool_chunk(0, "call_1", "no_such_tool", "{}"),
                          finish_chunk("tool_calls")})}},
              {200,
               "text/event-stream",
               {sse_body({text_chunk("Pinned."), finish_chunk("stop")})}}});
  // The first answer is the provider's loopback address; every later one points elsewhere. The
  // name itself resolves nowhere else (.invalid), so only the pin reaches the provider.
  ScriptedResolver resolver({{"127.0.0.1"}, {"127.0.0.2"}});
  ApiActionCaller actions(resolver, {/*allow_private_targets=*/true, "", 5000, 16384});
  SystemClock clock;
  OpenAiEngine engine(clock, LlmDefaults{}, &actions);
  std::string text;
  auto blocks = engine.reply(reply_request("http://llm.invalid:" + port_of(llm) + "/v1"),
                             [&](std::string_view piece) {
                               text += piece;
                               return true;
                             });
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  EXPECT_EQ(text, "Pinned.");
  auto requests = llm.requests();
  ASSERT_EQ(requests.size(), 2u);
  for (auto& r : requests) EXPECT_EQ(r.headers["host"], "llm.invalid:" + port_of(llm));
  EXPECT_EQ(resolver.calls(), 1u);
}

TEST(LlmProviderGuard, PrivateInternalAndUnresolvableProvidersAreRefusedAlike) {
  FakeLlmServer llm;
  llm.script({{200, "text/event-stream", {sse_body({text_chunk("no"), finish_chunk("stop")})}}});
  SystemClock clock;
  struct Case {
    std::string base_url;
    std::vector<std::vector<std::string>> answers;
  };
  std::string port = port_of(llm);
  for (const auto& c : std::vector<Case>{
           {"https://llm.example.com/v1", {{"10.0.0.7"}}},
           {"https://llm.example.com/v1", {{"93.184.216.34", "169.254.169.254"}}},
           {"https://llm.example.com/v1", {}},  // does not resolve
           {"https://localhost:" + port + "/v1", {{"127.0.0.1"}}},
           {"https://127.0.0.1:" + port + "/v1", {{"127.0.0.1"}}},
           {"https://provider.internal/v1", {{"93.184.216.34"}}},
           {"http://llm.example.com/v1", {{"93.184.216.34"}}},  // https only
           {"https://llm.example.com@127.0.0.1:" + port + "/v1", {{"93.184.216.34"}}},
       }) {
    ScriptedResolver resolver(c.answers);
    ApiActionCaller actions(resolver, {/*allow_private_targets=*/false, "", 5000, 16384});
    OpenAiEngine engine(clock, LlmDefaults{}, &actions);
    auto r = engine.reply(reply_request(c.base_url), [](std::string_view) { return true; });
    ASSERT_FALSE(r.ok()) << c.base_url;
    EXPECT_EQ(r.error().code, ErrorCode::kInternal) << c.base_url;
    EXPECT_EQ(r.error().message, kRefused) << c.base_url;
  }
  EXPECT_TRUE(llm.requests().empty());
}

}  // namespace
}  // namespace parley::e2e
