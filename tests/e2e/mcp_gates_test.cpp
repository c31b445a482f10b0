// POST /mcp behind the API's gates: the key's rate limit (429 with Retry-After) and the plan
// (403 plan_required on Free) as on /api/v1, a private agent and the chat deadline as tool errors
// that store nothing. The rate limit and the deadline need servers of their own.
#include "chat_support.h"

namespace parley::e2e {
namespace {

HttpResponse mcp(const Server& s, const std::string& key, const Json& message) {
  HttpRequest req;
  req.method = "POST";
  req.path = "/mcp";
  req.body = message.dump();
  req.headers = {"Authorization: Bearer " + key, "Accept: application/json, text/event-stream"};
  return s.request(req);
}

Json ping() { return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}; }

Json ask(const std::string& agent, const std::string& message) {
  return {{"jsonrpc", "2.0"},
          {"id", 2},
          {"method", "tools/call"},
          {"params",
           {{"name", "ask_agent"}, {"arguments", {{"agentId", agent}, {"message", message}}}}}};
}

TEST(McpGates, TheKeysRateLimitAppliesToEveryMessage) {
  TestClock clock;
  Server server({{"PARLEY_RATE_LIMIT_PER_MINUTE", "3"}}, clock.args());
  auto key = server.create_key(server.create_account());
  clock.advance_to_next_minute();
  for (int i = 1; i <= 3; ++i) {
    auto r = mcp(server, key, ping());
    ASSERT_EQ(r.status, 200) << "request " << i << ": " << r.body;
    EXPECT_EQ(r.header("x-ratelimit-limit"), "3");
    EXPECT_EQ(r.header("x-ratelimit-remaining"), std::to_string(3 - i));
  }
  auto limited = mcp(server, key, ping());
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.error_code(), "rate_limited");
  EXPECT_GE(std::stoi(limited.header("retry-after")), 1);
}

// The tests that need no setting of their own share one server.
class McpPlan : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
};
Server* McpPlan::server_ = nullptr;

TEST_F(McpPlan, TheFreePlanHasNoApiAndSoNoMcp) {
  const Server& server = *server_;
  auto account = server.create_account();
  auto key = server.create_key(account);
  ASSERT_EQ(mcp(server, key, ping()).status, 200);
  server.admin({"account", "set-plan", account, "free"});  // keys are made on paid plans only
  auto r = mcp(server, key, ping());
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "plan_required");
}

TEST_F(McpPlan, APrivateAgentIsAToolError) {
  const Server& server = *server_;
  auto account = server.create_account();
  auto agent =
      server.admin({"agent", "create", "--account", account, "--name", "Inner", "--private"})["id"]
          .get<std::string>();
  auto r = mcp(server, server.create_key(account), ask(agent, "hello"));
  ASSERT_EQ(r.status, 200) << r.body;
  auto result = r.json()["result"];
  EXPECT_EQ(result["isError"], true);
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("private"), std::string::npos)
      << r.body;
}

TEST(McpGates, AReplyPastTheDeadlineIsAToolErrorAndStoresNothing) {
  Server server(Env{{"PARLEY_RATE_LIMIT_PER_MINUTE", "1000000"},
                    {"PARLEY_CHAT_TIMEOUT_MS", "200"},
                    {"PARLEY_ENGINE_DELAY_MS", "5000"}});
  auto c = chat_setup(server);
  auto r = mcp(server, c.key, ask(c.agent, "hi"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["id"], 2);
  auto result = r.json()["result"];
  EXPECT_EQ(result["isError"], true);
  EXPECT_EQ(result["content"][0]["text"], "The reply took longer than 0.2 seconds.");
  EXPECT_EQ(result["_meta"]["parley/error"]["code"], "timeout");
  EXPECT_EQ(agent_counts(server, c)["conversations"], 0);
  EXPECT_EQ(server.admin({"account", "usage", c.account})["messagesUsed"], 0);
}

}  // namespace
}  // namespace parley::e2e
