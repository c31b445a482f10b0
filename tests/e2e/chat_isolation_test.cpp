// Tenant isolation of reply engines: with a provider that stalls, an agent's visitors past its
// concurrent-replies cap get 429 agent_busy at once, an account's agents together stop at the
// account's cap, the server stops at its reply threads with 503, and another account's writes
// stay fast; replies that time out count toward the agent's hourly busy limit.
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "chat_support.h"
#include "fake_llm_server.h"

namespace parley::e2e {
namespace {

constexpr const char* kLlmAgent = R"({"engine":"openai","instructions":"Be brief."})";

ScriptedResponse stall() { return {200, "text/event-stream", {}, 0, 10000}; }

HttpResponse widget_message(const Server& s, const std::string& agent, const std::string& visitor) {
  return s.request({"POST", "/widget/v1/agents/" + agent + "/messages",
                    Json{{"message", "Hello"}, {"visitorId", visitor}}.dump(),
                    {"Origin: https://shop.example.com"}});
}

struct Timed {
  HttpResponse response;
  double seconds = 0;
};

// Sends `n` widget messages to `agent` at once; returns each response with its duration.
std::vector<Timed> concurrent_messages(const Server& s, const std::string& agent, int n) {
  std::vector<Timed> out(n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      auto start = std::chrono::steady_clock::now();
      out[i].response = widget_message(s, agent, "visitor-" + std::to_string(i));
      out[i].seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
  }
  for (auto& t : threads) t.join();
  return out;
}

// Waits (up to 10 s) until the provider has received `n` requests.
void wait_for_provider_requests(const FakeLlmServer& llm, size_t n) {
  for (int i = 0; i < 1000 && llm.requests().size() < n; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_GE(llm.requests().size(), n);
}

class ChatIsolation : public ::testing::Test {
 protected:
  void SetUp() override { llm_.script({stall()}); }
  FakeLlmServer llm_;
};

TEST_F(ChatIsolation, StallingAgentsFillTheirOwnCapsAndAnotherAccountStaysFast) {
  Env env = unlimited();
  env["PARLEY_AGENT_CONCURRENT_REPLIES"] = "3";
  env["PARLEY_ACCOUNT_CONCURRENT_REPLIES"] = "5";
  env["PARLEY_REPLY_THREADS"] = "6";
  env["PARLEY_CONCURRENT_REPLIES"] = "6";
  // All visitors come from loopback here; the per-address limits are widget_limits_test.cpp's.
  env["PARLEY_WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS"] = "1000";
  env["PARLEY_WIDGET_MESSAGES_PER_MINUTE_PER_ADDRESS"] = "1000";
  Server s(env, {"--llm-base-url", llm_.base_url(), "--llm-model", "m", "--chat-timeout-ms",
                 "4000"});
  auto a = chat_setup(s, kLlmAgent);
  std::string a2 = s.create_agent(a.account, kLlmAgent);
  auto c = chat_setup(s, kLlmAgent);
  auto b = chat_setup(s);

  std::vector<Timed> first, second, third;
  std::thread load([&] {
    // 70 visitors of one agent: 3 reach the stalling provider, 67 are refused at once.
    first = concurrent_messages(s, a.agent, 70);
  });
  wait_for_provider_requests(llm_, 3);
  // The account's second agent: 2 more reach the provider, then the account's cap of 5.
  std::thread load2([&] { second = concurrent_messages(s, a2, 4); });
  wait_for_provider_requests(llm_, 5);
  // Another account: the server's sixth and last reply thread, then 503.
  std::thread load3([&] { third = concurrent_messages(s, c.agent, 3); });
  wait_for_provider_requests(llm_, 6);

  // Meanwhile another account's contact write is not held up by any of it.
  auto start = std::chrono::steady_clock::now();
  auto contact = s.post("/api/v1/agents/" + b.agent + "/contacts", b.key,
                        R"({"email":"someone@example.com"})");
  double contact_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(contact.status, 201) << contact.body;
  EXPECT_LT(contact_s, 1.0);
  load.join();
  load2.join();
  load3.join();

  auto tally = [](const std::vector<Timed>& all, long status, const std::string& code,
                  const std::string& message_part) {
    int n = 0;
    for (const auto& t : all) {
      if (t.response.status != status) continue;
      ++n;
      EXPECT_EQ(t.response.error_code(), code) << t.response.body;
      EXPECT_NE(t.response.error_message().find(message_part), std::string::npos)
          << t.response.body;
      if (status != 504) {
        EXPECT_EQ(t.response.header("retry-after"), "2");
        EXPECT_LT(t.seconds, 1.0) << "refused at once";
      }
    }
    return n;
  };
  EXPECT_EQ(tally(first, 504, "timeout", "longer than"), 3);
  EXPECT_EQ(tally(first, 429, "agent_busy", "agent is already writing 3 replies at once"), 67);
  EXPECT_EQ(tally(second, 504, "timeout", "longer than"), 2);
  EXPECT_EQ(tally(second, 429, "agent_busy", "account is already writing 5 replies at once"), 2);
  EXPECT_EQ(tally(third, 504, "timeout", "longer than"), 1);
  EXPECT_EQ(tally(third, 503, "unavailable", "as many replies as it can"), 2);
  EXPECT_EQ(llm_.requests().size(), 6u);
}

TEST_F(ChatIsolation, RepliesThatTimeOutCountTowardTheHourlyBusyLimit) {
  Env env = unlimited();
  env["PARLEY_AGENT_REPLIES_PER_HOUR"] = "2";
  Server s(env, {"--llm-base-url", llm_.base_url(), "--llm-model", "m", "--chat-timeout-ms",
                 "300"});
  auto a = chat_setup(s, kLlmAgent);
  for (int i = 0; i < 2; ++i) {
    auto r = chat(s, a, {{"message", "hi"}});
    EXPECT_EQ(r.status, 504) << r.body;
    EXPECT_EQ(r.error_code(), "timeout");
  }
  // Written behind; give the writer a moment.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto r = chat(s, a, {{"message", "hi"}, {"stream", true}});
  EXPECT_EQ(r.status, 429) << r.body;
  EXPECT_EQ(r.error_code(), "agent_busy");
  EXPECT_NE(r.error_message().find("over 2 per hour"), std::string::npos) << r.body;
  int64_t retry = std::stoll(r.header("retry-after"));
  EXPECT_GE(retry, 1);
  EXPECT_LE(retry, 3600);
  auto w = widget_message(s, a.agent, "v");
  EXPECT_EQ(w.status, 429) << w.body;
  EXPECT_EQ(w.error_code(), "agent_busy");
  EXPECT_EQ(llm_.requests().size(), 2u);
}

}  // namespace
}  // namespace parley::e2e

namespace parley::e2e {
namespace {

TEST(ChatIsolationSettings, ReplyThreadsMustLeaveRequestHandlerThreadsFree) {
  char dir[] = "/tmp/parley-reply-threads-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  auto r = run_process({PARLEY_BINARY, "serve", "--listen", "127.0.0.1:0", "--reply-threads", "64"},
                       {{"PARLEY_DATA_DIR", dir}});
  EXPECT_EQ(r.exit_code, 1);
  auto error = Json::parse(r.err.substr(r.err.find("{\"error\"")))["error"];
  EXPECT_EQ(error["code"], "invalid_request");
  EXPECT_EQ(error["message"], "--reply-threads must be below 64, the request handlers' threads");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parley::e2e
