// Chat rules beyond the request: team takeover, contact details saved as leads, plan messages,
// the agent's monthly cap, the hourly busy limit, the reply timeout, and usage in the admin CLI.
#include <chrono>
#include <thread>

#include "chat_support.h"

namespace parley::e2e {
namespace {

class ChatRules : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
  const Server& s() { return *server_; }
};
Server* ChatRules::server_ = nullptr;

Json usage(const Server& s, const ChatSetup& c) { return s.admin({"account", "usage", c.account}); }

TEST_F(ChatRules, TakeoverPausesRepliesWithoutUsingMessages) {
  auto c = chat_setup(s());
  auto first = chat(s(), c, {{"message", "I need a human"}}).json();
  std::string conv = first["conversationId"];
  EXPECT_EQ(usage(s(), c)["messagesUsed"], 1);
  auto t = s().admin({"conversation", "takeover", conv, "--member", "Maria Lopez"});
  EXPECT_EQ(t["takenOverBy"], "Maria");

  auto r = chat(s(), c, {{"message", "Hello?"}, {"conversationId", conv}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["reply"], "");
  EXPECT_EQ(j["liveChat"], "paused");
  EXPECT_EQ(j["conversationId"], conv);
  EXPECT_EQ(j["sources"], Json::array());
  auto streamed =
      chat(s(), c, {{"message", "Still there?"}, {"conversationId", conv}, {"stream", true}});
  EXPECT_EQ(streamed.status, 200);
  EXPECT_EQ(streamed.body, "");
  EXPECT_EQ(streamed.header("x-live-chat"), "paused");
  EXPECT_EQ(usage(s(), c)["messagesUsed"], 1);

  auto m = s().admin(
      {"conversation", "reply", conv, "--member", "Maria Lopez", "--text", "Hi, Maria here."});
  EXPECT_EQ(m["authorName"], "Maria");
  auto shown = show_conversation(s(), conv);
  ASSERT_EQ(shown["messages"].size(), 5u);
  EXPECT_EQ(shown["messages"][2]["content"], "Hello?");
  EXPECT_EQ(shown["messages"][3]["content"], "Still there?");
  EXPECT_EQ(shown["messages"][4]["role"], "assistant");
  EXPECT_EQ(shown["messages"][4]["content"], "Hi, Maria here.");
  EXPECT_EQ(shown["messages"][4]["authorName"], "Maria");
  EXPECT_EQ(shown["liveChat"]["status"], "active");

  s().admin({"conversation", "release", conv});
  j = chat(s(), c, {{"message", "Thanks"}, {"conversationId", conv}}).json();
  EXPECT_EQ(j["reply"], kDefaultFallback);
  EXPECT_TRUE(j["liveChat"].is_null());
  EXPECT_EQ(usage(s(), c)["messagesUsed"], 2);
  EXPECT_EQ(show_conversation(s(), conv)["liveChat"]["status"], "ended");
}

TEST_F(ChatRules, TeamReplyNeedsATakeover) {
  auto c = chat_setup(s());
  std::string conv = chat(s(), c, {{"message", "hi"}}).json()["conversationId"];
  auto r = s().admin({"conversation", "reply", conv, "--member", "Sam", "--text", "hello"}, true);
  EXPECT_NE(r["stderr"].get<std::string>().find("invalid_request"), std::string::npos);
  r = s().admin({"conversation", "takeover", "cnv_missing", "--member", "Sam"}, true);
  EXPECT_NE(r["stderr"].get<std::string>().find("not_found"), std::string::npos);
}

TEST_F(ChatRules, ContactDetailsBecomeOneLeadPerPerson) {
  auto c = chat_setup(s(), R"({"saveContactDetails": true})");
  auto r = chat(s(), c, {{"message", "my email is Ann.Lee@Example.com"}, {"sessionId", "ann"}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(agent_counts(s(), c)["leads"], 1);
  chat(s(), c, {{"message", "again: ann.lee@example.com"}, {"sessionId", "ann"}});
  EXPECT_EQ(agent_counts(s(), c)["leads"], 1);
  chat(s(), c, {{"message", "or call +1 415 555 0100"}});
  EXPECT_EQ(agent_counts(s(), c)["leads"], 2);
  // Without the setting nothing is saved.
  auto off = chat_setup(s());
  chat(s(), off, {{"message", "my email is bob@example.com"}});
  EXPECT_EQ(agent_counts(s(), off)["leads"], 0);
}

TEST_F(ChatRules, PlanMessagesRunOut) {
  auto c = chat_setup(s());
  s().admin({"account", "set-limits", c.account, R"({"messagesPerMonth": 2})"});
  EXPECT_EQ(chat(s(), c, {{"message", "1"}}).status, 200);
  EXPECT_EQ(chat(s(), c, {{"message", "2"}}).status, 200);
  auto r = chat(s(), c, {{"message", "3"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "message_limit_reached");
  r = chat(s(), c, {{"message", "3"}, {"stream", true}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "message_limit_reached");
  auto u = usage(s(), c);
  EXPECT_EQ(u["messagesUsed"], 2);
  EXPECT_EQ(u["messagesPerMonth"], 2);
  EXPECT_EQ(u["agents"][0]["messagesUsed"], 2);
  EXPECT_EQ(agent_counts(s(), c)["messages"], 4);  // refused messages are not stored
}

TEST_F(ChatRules, AgentMonthlyCap) {
  auto c = chat_setup(s(), R"({"monthlyMessageCap": 1})");
  EXPECT_EQ(chat(s(), c, {{"message", "1"}}).status, 200);
  auto r = chat(s(), c, {{"message", "2"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "agent_cap_reached");
  EXPECT_EQ(usage(s(), c)["agents"][0]["monthlyMessageCap"], 1);
  // Another agent of the account is not capped.
  ChatSetup sibling = c;
  sibling.agent = s().create_agent(c.account);
  EXPECT_EQ(chat(s(), sibling, {{"message", "1"}}).status, 200);
  EXPECT_EQ(usage(s(), c)["messagesUsed"], 2);
}

class ChatBusy : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new Server(
        Env{{"PARLEY_RATE_LIMIT_PER_MINUTE", "8"}, {"PARLEY_AGENT_REPLIES_PER_HOUR", "3"}});
  }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
};
Server* ChatBusy::server_ = nullptr;

// The agent's replies are counted per clock hour: a test that fills an hour starts away from its
// end, so that its refusals all fall in the hour its replies were counted in.
void away_from_an_hours_end() {
  using namespace std::chrono;
  constexpr milliseconds kMargin{5000};
  const auto now = duration_cast<milliseconds>(system_clock::now().time_since_epoch());
  const milliseconds left = hours(1) - now % hours(1);
  if (left < kMargin) std::this_thread::sleep_for(left + milliseconds(100));
}

TEST_F(ChatBusy, AgentBusyBeyondItsHourlyReplies) {
  away_from_an_hours_end();
  auto c = chat_setup(*server_);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(chat(*server_, c, {{"message", "hi"}}).status, 200);
  auto r = chat(*server_, c, {{"message", "hi"}});
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.error_code(), "agent_busy");
  r = chat(*server_, c, {{"message", "hi"}, {"stream", true}});
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.error_code(), "agent_busy");
  // The limit is the agent's, not the account's.
  ChatSetup sibling = c;
  sibling.agent = server_->create_agent(c.account);
  EXPECT_EQ(chat(*server_, sibling, {{"message", "hi"}}).status, 200);
}

TEST_F(ChatBusy, TheKeysRateLimitAppliesBeforeTheAgentsLimits) {
  away_from_an_hours_end();
  auto c = chat_setup(*server_);
  std::vector<HttpResponse> replies;
  for (int i = 0; i < 9; ++i) replies.push_back(chat(*server_, c, {{"message", "hi"}}));
  EXPECT_EQ(replies[3].error_code(), "agent_busy");
  // Unless a new minute began meanwhile, the 9th request is over the key's 8 per minute.
  if (replies[8].header("x-ratelimit-reset") == replies[0].header("x-ratelimit-reset")) {
    EXPECT_EQ(replies[8].status, 429);
    EXPECT_EQ(replies[8].error_code(), "rate_limited");
    EXPECT_TRUE(replies[8].has_header("retry-after"));
  }
}

class ChatTimeout : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new Server(Env{{"PARLEY_RATE_LIMIT_PER_MINUTE", "1000000"},
                             {"PARLEY_CHAT_TIMEOUT_MS", "200"},
                             {"PARLEY_ENGINE_DELAY_MS", "5000"}});
  }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
};
Server* ChatTimeout::server_ = nullptr;

TEST_F(ChatTimeout, SlowReplyEndsWith504AndStoresNothing) {
  auto c = chat_setup(*server_);
  auto r = chat(*server_, c, {{"message", "hi"}, {"sessionId", "slow"}});
  EXPECT_EQ(r.status, 504);
  EXPECT_EQ(r.error_code(), "timeout");
  r = chat(*server_, c, {{"message", "hi"}, {"stream", true}});
  EXPECT_EQ(r.status, 504);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.error_code(), "timeout");
  EXPECT_EQ(agent_counts(*server_, c)["conversations"], 0);
  EXPECT_EQ(agent_counts(*server_, c)["messages"], 0);
  EXPECT_EQ(server_->admin({"account", "usage", c.account})["messagesUsed"], 0);
}

}  // namespace
}  // namespace parley::e2e
