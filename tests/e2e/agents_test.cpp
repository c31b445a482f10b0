// GET /api/v1/agents and /api/v1/agents/{agentId}: every field of the Agent resource, and other
// accounts' agents invisible.
#include "harness.h"

namespace parley::e2e {
namespace {

class AgentsApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
};
Server* AgentsApi::server_ = nullptr;

TEST_F(AgentsApi, GetAgentShowsEveryField) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  auto r = server_->get("/api/v1/agents/" + agent, key);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  auto a = r.json()["data"];
  EXPECT_EQ(a["id"], agent);
  EXPECT_EQ(a["name"], "Test agent");
  EXPECT_EQ(a["private"], false);
  EXPECT_EQ(a["status"], "untrained");
  EXPECT_TRUE(a["trainedAt"].is_null());
  EXPECT_EQ(a["characters"], 0);
  EXPECT_EQ(a["counts"], (Json{{"conversations", 0}, {"messages", 0}, {"leads", 0}, {"sources", 0}}));
  EXPECT_TRUE(std::regex_match(a["createdAt"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
  EXPECT_EQ(a["createdAt"], a["updatedAt"]);
}

TEST_F(AgentsApi, ListIsNewestFirstAndOnlyThisAccount) {
  auto account = server_->create_account();
  auto first = server_->create_agent(account);
  auto second = server_->create_agent(account);
  auto other_account = server_->create_account();
  server_->create_agent(other_account);
  auto key = server_->create_key(account);
  auto r = server_->get("/api/v1/agents", key);
  ASSERT_EQ(r.status, 200);
  auto data = r.json()["data"];
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0]["id"], second);
  EXPECT_EQ(data[1]["id"], first);
}

TEST_F(AgentsApi, PrivateFlagIsShown) {
  auto account = server_->create_account();
  auto agent = server_->admin({"agent", "create", "--account", account, "--name", "Inner", "--private"})["id"];
  auto key = server_->create_key(account);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent.get<std::string>(), key).json()["data"]["private"], true);
}

TEST_F(AgentsApi, AnotherAccountsAgentIsNotFound) {
  auto mine = server_->create_account();
  auto theirs = server_->create_account();
  auto their_agent = server_->create_agent(theirs);
  auto key = server_->create_key(mine);
  auto r = server_->get("/api/v1/agents/" + their_agent, key);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  auto missing = server_->get("/api/v1/agents/agt_doesnotexist", key);
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.error_code(), "not_found");
  EXPECT_EQ(missing.header("x-ratelimit-limit"), "1000000");
}

TEST_F(AgentsApi, ChangesByAnotherProcessAreSeenOnTheNextRead) {
  // The server serves agents from a cache invalidated by every committed write of any process.
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  ASSERT_EQ(server_->get("/api/v1/agents/" + agent, key).json()["data"]["name"], "Test agent");
  server_->admin({"agent", "update", agent, "--name", "Renamed", "--private"});
  auto after = server_->get("/api/v1/agents/" + agent, key).json()["data"];
  EXPECT_EQ(after["name"], "Renamed");
  EXPECT_EQ(after["private"], true);
  auto source = server_->post("/api/v1/agents/" + agent + "/sources", key,
                              R"({"type": "text", "title": "T", "content": "Some words to index."})");
  ASSERT_EQ(source.status, 201) << source.body;
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent, key).json()["data"]["counts"]["sources"], 1);
}

TEST_F(AgentsApi, AnAnswerFromTheCacheIsTheSameAsOneReadFromTheDatabase) {
  // The first read loads the agent on the blocking pool; the second is served from the cache on
  // the I/O thread. Both carry the gate chain's headers, and the key is counted once per request.
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  auto loaded = server_->get("/api/v1/agents/" + agent, key);
  auto cached = server_->get("/api/v1/agents/" + agent, key);
  ASSERT_EQ(loaded.status, 200) << loaded.body;
  ASSERT_EQ(cached.status, 200) << cached.body;
  EXPECT_EQ(cached.body, loaded.body);
  EXPECT_EQ(loaded.header("x-ratelimit-limit"), "1000000");
  EXPECT_EQ(cached.header("x-ratelimit-limit"), "1000000");
  if (loaded.header("x-ratelimit-reset") == cached.header("x-ratelimit-reset")) {
    EXPECT_EQ(std::stoi(cached.header("x-ratelimit-remaining")),
              std::stoi(loaded.header("x-ratelimit-remaining")) - 1);
  }
}

}  // namespace
}  // namespace parley::e2e
