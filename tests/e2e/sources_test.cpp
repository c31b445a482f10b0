// Knowledge sources over HTTP: the add rules (text always new; Q&A created, updated, unchanged by
// case-folded question), validation naming the field, the training-character limit, listing,
// deletion, other accounts' items invisible, scopes, and training observed to its end (trained,
// failed with an error, resumed after the server is killed).
#include <chrono>
#include <thread>

#include "harness.h"

namespace parley::e2e {
namespace {

std::string text_body(const std::string& content, const std::string& title = "") {
  Json j{{"type", "text"}, {"content", content}};
  if (!title.empty()) j["title"] = title;
  return j.dump();
}

std::string qa_body(const std::string& question, const std::string& answer) {
  return Json{{"type", "qa"}, {"question", question}, {"answer", answer}}.dump();
}

// Polls the list until training is done (bounded); returns the last list body.
Json wait_done(const Server& server, const std::string& agent, const std::string& key) {
  Json body;
  for (int i = 0; i < 400; ++i) {
    auto r = server.get("/api/v1/agents/" + agent + "/sources", key);
    body = r.json();
    if (r.status == 200 && body["training"]["done"] == true) return body;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ADD_FAILURE() << "training did not finish: " << body.dump();
  return body;
}

// A fresh account (starter plan), agent and key with every scope.
struct Tenant {
  std::string account, agent, key;
  std::string sources() const { return "/api/v1/agents/" + agent + "/sources"; }
};

class SourcesApi : public ::testing::Test {
 protected:
  // Each test has its own server, started from the suite's seed (made once for all of them).
  void SetUp() override {
    server_ = new Server(unlimited(), {}, &account_seed("SourcesApi"));
    seed_taken_ = false;
  }
  void TearDown() override {
    delete server_;
    server_ = nullptr;
  }
  // An account with an agent and a key of `scopes` (every scope when empty). The test's first
  // with every scope is the seed's.
  static Tenant tenant(const std::string& scopes = "") {
    Tenant t;
    if (scopes.empty() && !seed_taken_) {
      seed_taken_ = true;
      const Json& v = account_seed("SourcesApi").values;
      t.account = v["account"];
      t.agent = v["agent"];
      t.key = v["key"];
      return t;
    }
    t.account = server_->create_account();
    t.agent = server_->create_agent(t.account);
    t.key = server_->create_key(t.account, scopes);
    return t;
  }
  static void expect_invalid(const HttpResponse& r, const std::string& field) {
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_NE(r.error_message().find("'" + field + "'"), std::string::npos) << r.error_message();
  }
  static Server* server_;
  static inline bool seed_taken_ = false;
};
Server* SourcesApi::server_ = nullptr;

TEST_F(SourcesApi, TextSnippetIsAlwaysCreated) {
  auto t = tenant();
  auto first = server_->post(t.sources(), t.key, text_body("Opening hours are nine to five.", "Hours"));
  ASSERT_EQ(first.status, 201) << first.body;
  auto j = first.json();
  EXPECT_EQ(j["result"], "created");
  auto d = j["data"];
  EXPECT_EQ(d["id"].get<std::string>().rfind("src_", 0), 0u);
  EXPECT_EQ(d["type"], "text");
  EXPECT_EQ(d["title"], "Hours");
  EXPECT_TRUE(d["url"].is_null());
  EXPECT_TRUE(d["filename"].is_null());
  EXPECT_FALSE(d.contains("question"));
  EXPECT_FALSE(d.contains("content"));
  EXPECT_EQ(d["characters"], 31);
  EXPECT_EQ(d["status"], "pending");
  EXPECT_TRUE(d["error"].is_null());
  EXPECT_TRUE(d["trainedAt"].is_null());
  EXPECT_TRUE(d["createdAt"].is_string());
  EXPECT_EQ(j["training"]["total"], 1);
  EXPECT_TRUE(j["training"].contains("trained") && j["training"].contains("pending") &&
              j["training"].contains("processing") && j["training"].contains("failed") &&
              j["training"].contains("done"));

  auto second = server_->post(t.sources(), t.key, text_body("Opening hours are nine to five.", "Hours"));
  ASSERT_EQ(second.status, 201);
  EXPECT_EQ(second.json()["result"], "created");
  EXPECT_NE(second.json()["data"]["id"], d["id"]);
  EXPECT_EQ(second.json()["training"]["total"], 2);
}

TEST_F(SourcesApi, QaCreatedUnchangedUpdatedByCaseInsensitiveQuestion) {
  auto t = tenant();
  auto created = server_->post(t.sources(), t.key, qa_body("What is X?", "X is a letter."));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json()["result"], "created");
  auto id = created.json()["data"]["id"];
  EXPECT_EQ(created.json()["data"]["type"], "qa");
  EXPECT_EQ(created.json()["data"]["question"], "What is X?");
  EXPECT_EQ(created.json()["data"]["answer"], "X is a letter.");
  EXPECT_EQ(created.json()["data"]["characters"], 24);

  auto same = server_->post(t.sources(), t.key, qa_body("what is x?", "X is a letter."));
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_EQ(same.json()["result"], "unchanged");
  EXPECT_EQ(same.json()["data"]["id"], id);
  EXPECT_EQ(same.json()["training"]["total"], 1);

  auto updated = server_->post(t.sources(), t.key, qa_body("WHAT IS X?", "X is the 24th letter."));
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(updated.json()["result"], "updated");
  EXPECT_EQ(updated.json()["data"]["id"], id);
  EXPECT_EQ(updated.json()["data"]["answer"], "X is the 24th letter.");
  EXPECT_EQ(updated.json()["training"]["total"], 1);

  auto list = server_->get(t.sources(), t.key).json();
  ASSERT_EQ(list["data"].size(), 1u);
  EXPECT_EQ(list["data"][0]["answer"], "X is the 24th letter.");

  auto other = server_->post(t.sources(), t.key, qa_body("What is Y?", "Another letter."));
  EXPECT_EQ(other.status, 201);
}

TEST_F(SourcesApi, QaQuestionsCompareWithUnicodeCaseFolding) {
  auto t = tenant();
  ASSERT_EQ(server_->post(t.sources(), t.key, qa_body("Wo ist die STRASSE?", "Links.")).status, 201);
  auto same = server_->post(t.sources(), t.key, qa_body("wo ist die straße?", "Links."));
  EXPECT_EQ(same.status, 200);
  EXPECT_EQ(same.json()["result"], "unchanged");
  auto greek = server_->post(t.sources(), t.key, qa_body("ΤΙ ΕΙΝΑΙ ΣΟΦΙΑ;", "Wisdom."));
  EXPECT_EQ(greek.status, 201);
  auto greek_lower = server_->post(t.sources(), t.key, qa_body("τι ειναι σοφια;", "Knowledge."));
  EXPECT_EQ(greek_lower.status, 200);
  EXPECT_EQ(greek_lower.json()["result"], "updated");
}

TEST_F(SourcesApi, ListIsNewestFirstWithoutTextAndWithCharacters) {
  auto t = tenant();
  auto a = server_->post(t.sources(), t.key, text_body("First snippet text.")).json()["data"]["id"];
  auto b = server_->post(t.sources(), t.key, qa_body("Second?", "Yes.")).json()["data"]["id"];
  auto c = server_->post(t.sources(), t.key, text_body("Third snippet.", "Third")).json()["data"]["id"];
  auto r = server_->get(t.sources(), t.key);
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  ASSERT_EQ(j["data"].size(), 3u);
  EXPECT_EQ(j["data"][0]["id"], c);
  EXPECT_EQ(j["data"][1]["id"], b);
  EXPECT_EQ(j["data"][2]["id"], a);
  for (auto& s : j["data"]) EXPECT_FALSE(s.contains("content")) << s.dump();
  EXPECT_EQ(j["data"][1]["question"], "Second?");
  EXPECT_EQ(j["data"][1]["answer"], "Yes.");
  EXPECT_FALSE(j["data"][0].contains("question"));
  EXPECT_EQ(j["training"]["total"], 3);
  EXPECT_EQ(j["characters"]["limit"], 11000000);
  EXPECT_TRUE(j["characters"]["used"].is_number_integer());
}

TEST_F(SourcesApi, CharacterLimitCountsCodePointsAndStoresNothingOver) {
  auto t = tenant();
  server_->admin({"account", "set-limits", t.account, R"({"trainingCharacters": 10})"});
  auto at_limit = server_->post(t.sources(), t.key, text_body("ééééé12345"));  // 10 code points, 15 bytes
  ASSERT_EQ(at_limit.status, 201) << at_limit.body;
  EXPECT_EQ(at_limit.json()["data"]["characters"], 10);
  auto over = server_->post(t.sources(), t.key, text_body("x"));
  EXPECT_EQ(over.status, 403);
  EXPECT_EQ(over.error_code(), "character_limit_exceeded");
  auto qa_over = server_->post(t.sources(), t.key, qa_body("Q?", "A"));
  EXPECT_EQ(qa_over.status, 403);
  EXPECT_EQ(qa_over.error_code(), "character_limit_exceeded");
  auto list = server_->get(t.sources(), t.key).json();
  EXPECT_EQ(list["data"].size(), 1u);
  EXPECT_EQ(list["characters"]["limit"], 10);
  auto agent = server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"];
  EXPECT_EQ(agent["counts"]["sources"], 1);
}

TEST_F(SourcesApi, PendingSourcesCountTowardTheLimit) {
  auto t = tenant();
  server_->admin({"account", "set-limits", t.account, R"({"trainingCharacters": 12})"});
  EXPECT_EQ(server_->post(t.sources(), t.key, text_body("abcdefgh")).status, 201);
  auto second = server_->post(t.sources(), t.key, text_body("abcdefgh"));
  EXPECT_EQ(second.status, 403);
  EXPECT_EQ(second.error_code(), "character_limit_exceeded");
}

TEST_F(SourcesApi, QaUpdateCountsOnlyTheNewAnswerAgainstTheLimit) {
  auto t = tenant();
  server_->admin({"account", "set-limits", t.account, R"({"trainingCharacters": 10})"});
  ASSERT_EQ(server_->post(t.sources(), t.key, qa_body("Q?", "12345678")).status, 201);  // 10
  auto updated = server_->post(t.sources(), t.key, qa_body("q?", "87654321"));
  EXPECT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(updated.json()["result"], "updated");
  auto over = server_->post(t.sources(), t.key, qa_body("Q?", "123456789"));
  EXPECT_EQ(over.status, 403);
  EXPECT_EQ(over.error_code(), "character_limit_exceeded");
}

TEST_F(SourcesApi, ValidationNamesTheField) {
  auto t = tenant();
  expect_invalid(server_->post(t.sources(), t.key, R"({"content": "x"})"), "type");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "pdf", "content": "x"})"), "type");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": 5, "content": "x"})"), "type");
  for (std::string type : {"website", "file", "workspace"})
    expect_invalid(server_->post(t.sources(), t.key, Json{{"type", type}, {"content", "x"}, {"url", "https://a.example"}}.dump()),
                   "type");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "text"})"), "content");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "text", "content": ""})"), "content");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "text", "content": "   "})"), "content");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "text", "content": 12})"), "content");
  expect_invalid(server_->post(t.sources(), t.key, text_body("x", std::string(201, 'a'))), "title");
  std::string title200;
  for (int i = 0; i < 200; ++i) title200 += "é";
  EXPECT_EQ(server_->post(t.sources(), t.key, text_body("x", title200)).status, 201);
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "qa", "answer": "a"})"), "question");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "qa", "question": "", "answer": "a"})"), "question");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "qa", "question": "q"})"), "answer");
  expect_invalid(server_->post(t.sources(), t.key, R"({"type": "qa", "question": "q", "answer": ""})"), "answer");
  expect_invalid(server_->post(t.sources(), t.key, qa_body(std::string(201, 'q'), "a")), "question");
  EXPECT_EQ(server_->post(t.sources(), t.key, qa_body(std::string(200, 'q'), "a")).status, 201);
  auto not_json = server_->post(t.sources(), t.key, "not json");
  EXPECT_EQ(not_json.status, 400);
  EXPECT_EQ(not_json.error_code(), "invalid_request");
  EXPECT_EQ(server_->get(t.sources(), t.key).json()["data"].size(), 2u);
}

TEST_F(SourcesApi, OtherAccountsAgentsAndSourcesAreNotFound) {
  auto mine = tenant();
  auto theirs = tenant();
  auto their_source = server_->post(theirs.sources(), theirs.key, text_body("Secret.")).json()["data"]["id"].get<std::string>();
  auto my_source = server_->post(mine.sources(), mine.key, text_body("Mine.")).json()["data"]["id"].get<std::string>();
  for (const auto& r : {server_->get(theirs.sources(), mine.key),
                        server_->post(theirs.sources(), mine.key, text_body("x")),
                        server_->del(theirs.sources() + "/" + their_source, mine.key),
                        server_->del(mine.sources() + "/" + their_source, mine.key),
                        server_->del(mine.sources() + "/src_doesnotexist", mine.key),
                        server_->del(theirs.sources() + "/" + my_source, mine.key)}) {
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(r.error_code(), "not_found");
  }
  EXPECT_EQ(server_->get(theirs.sources(), theirs.key).json()["data"].size(), 1u);
}

TEST_F(SourcesApi, ScopesAreChecked) {
  auto t = tenant("sources:read");
  auto post = server_->post(t.sources(), t.key, text_body("x"));
  EXPECT_EQ(post.status, 403);
  EXPECT_EQ(post.error_code(), "insufficient_scope");
  EXPECT_EQ(server_->del(t.sources() + "/src_x", t.key).error_code(), "insufficient_scope");
  EXPECT_EQ(server_->get(t.sources(), t.key).status, 200);
  auto writer = server_->create_key(t.account, "sources:write");
  auto get = server_->get(t.sources(), writer);
  EXPECT_EQ(get.status, 403);
  EXPECT_EQ(get.error_code(), "insufficient_scope");
  EXPECT_EQ(server_->post(t.sources(), writer, text_body("x")).status, 201);
}

TEST_F(SourcesApi, DeleteRemovesTheSourceAndCounts) {
  auto t = tenant();
  auto keep = server_->post(t.sources(), t.key, text_body("Keep this snippet.")).json()["data"]["id"];
  auto gone = server_->post(t.sources(), t.key, text_body("Delete this one.")).json()["data"]["id"].get<std::string>();
  auto done = wait_done(*server_, t.agent, t.key);
  auto agent_before = server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"];
  EXPECT_EQ(agent_before["characters"], 34);
  auto r = server_->del(t.sources() + "/" + gone, t.key);
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["id"], gone);
  EXPECT_EQ(j["deleted"], true);
  EXPECT_EQ(j["training"]["total"], 1);
  EXPECT_EQ(j["training"]["trained"], 1);
  EXPECT_EQ(j["training"]["done"], true);
  auto list = server_->get(t.sources(), t.key).json();
  ASSERT_EQ(list["data"].size(), 1u);
  EXPECT_EQ(list["data"][0]["id"], keep);
  EXPECT_EQ(list["characters"]["used"], 18);
  auto agent = server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"];
  EXPECT_EQ(agent["counts"]["sources"], 1);
  EXPECT_EQ(agent["characters"], 18);
  EXPECT_EQ(agent["status"], "trained");
  EXPECT_EQ(server_->del(t.sources() + "/" + gone, t.key).status, 404);
  server_->del(t.sources() + "/" + keep.get<std::string>(), t.key);
  agent = server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"];
  EXPECT_EQ(agent["status"], "untrained");
  EXPECT_EQ(agent["counts"]["sources"], 0);
  EXPECT_EQ(agent["characters"], 0);
}

TEST_F(SourcesApi, TrainingEndsTrainedAndTheAgentFollows) {
  auto t = tenant();
  EXPECT_EQ(server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"]["status"], "untrained");
  server_->post(t.sources(), t.key, text_body("We roast coffee every morning."));
  server_->post(t.sources(), t.key, qa_body("Do you roast daily?", "Yes."));
  auto list = wait_done(*server_, t.agent, t.key);
  EXPECT_EQ(list["training"], (Json{{"total", 2}, {"trained", 2}, {"pending", 0}, {"processing", 0}, {"failed", 0}, {"done", true}}));
  for (auto& s : list["data"]) {
    EXPECT_EQ(s["status"], "trained");
    EXPECT_TRUE(s["trainedAt"].is_string());
    EXPECT_TRUE(s["error"].is_null());
  }
  EXPECT_EQ(list["characters"]["used"], 30 + 23);
  auto agent = server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"];
  EXPECT_EQ(agent["status"], "trained");
  EXPECT_TRUE(agent["trainedAt"].is_string());
  EXPECT_EQ(agent["characters"], 53);
  EXPECT_EQ(agent["counts"]["sources"], 2);
}

TEST_F(SourcesApi, ContentWithoutWordsFailsWithAnError) {
  auto t = tenant();
  auto id = server_->post(t.sources(), t.key, text_body("!!! ??? … —")).json()["data"]["id"];
  auto list = wait_done(*server_, t.agent, t.key);
  ASSERT_EQ(list["data"].size(), 1u);
  EXPECT_EQ(list["data"][0]["id"], id);
  EXPECT_EQ(list["data"][0]["status"], "failed");
  EXPECT_EQ(list["data"][0]["error"], "The content has no words to index.");
  EXPECT_TRUE(list["data"][0]["trainedAt"].is_null());
  EXPECT_EQ(list["training"]["failed"], 1);
  EXPECT_EQ(list["characters"]["used"], 0);
  auto agent = server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"];
  EXPECT_EQ(agent["status"], "error");
  EXPECT_EQ(agent["characters"], 0);

  // A failed source does not count toward the limit.
  server_->admin({"account", "set-limits", t.account, R"({"trainingCharacters": 5})"});
  EXPECT_EQ(server_->post(t.sources(), t.key, text_body("hello")).status, 201);
  wait_done(*server_, t.agent, t.key);
  EXPECT_EQ(server_->get("/api/v1/agents/" + t.agent, t.key).json()["data"]["status"], "trained");
}

TEST_F(SourcesApi, OperatorsAddOtherTypesThatTheListShows) {
  auto t = tenant();
  auto added = server_->admin({"source", "add", "--agent", t.agent, "--type", "website", "--title", "Home",
                               "--url", "https://shop.example/", "--content", "Welcome to our shop."});
  EXPECT_EQ(added["result"], "created");
  server_->admin({"source", "add", "--agent", t.agent, "--type", "file", "--filename", "menu.pdf", "--content", "Menu."});
  auto list = server_->get(t.sources(), t.key).json();
  ASSERT_EQ(list["data"].size(), 2u);
  EXPECT_EQ(list["data"][0]["type"], "file");
  EXPECT_EQ(list["data"][0]["filename"], "menu.pdf");
  EXPECT_EQ(list["data"][1]["type"], "website");
  EXPECT_EQ(list["data"][1]["url"], "https://shop.example/");
  EXPECT_EQ(list["data"][1]["title"], "Home");
  auto done = wait_done(*server_, t.agent, t.key);
  EXPECT_EQ(done["training"]["trained"], 2);
  auto cli = server_->admin({"source", "list", "--agent", t.agent});
  EXPECT_EQ(cli["data"].size(), 2u);
}

// A server whose workers pause before claiming and before finishing, so each state can be seen.
class SourcesTraining : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto env = unlimited();
    env["PARLEY_TRAINING_DELAY_MS"] = "700";
    env["PARLEY_TRAINING_THREADS"] = "1";
    // Short claims: with PostgreSQL, a killed node's source is taken over when its claim ends.
    env["PARLEY_TRAINING_LEASE_MS"] = "2000";
    server_ = new Server(env);
  }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
};
Server* SourcesTraining::server_ = nullptr;

// Polls until the source shows `status`; returns whether it did.
bool wait_status(const Server& server, const std::string& path, const std::string& key, const std::string& status) {
  for (int i = 0; i < 600; ++i) {
    auto list = server.get(path, key).json();
    if (!list["data"].empty() && list["data"][0]["status"] == status) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST_F(SourcesTraining, StatusMovesPendingProcessingTrained) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  std::string path = "/api/v1/agents/" + agent + "/sources";
  auto created = server_->post(path, key, text_body("Beans are roasted on Mondays."));
  ASSERT_EQ(created.status, 201);
  EXPECT_EQ(created.json()["training"]["pending"], 1);
  EXPECT_EQ(created.json()["training"]["done"], false);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent, key).json()["data"]["status"], "training");
  EXPECT_TRUE(wait_status(*server_, path, key, "processing"));
  auto during = server_->get(path, key).json();
  EXPECT_EQ(during["training"]["processing"], 1);
  EXPECT_EQ(during["training"]["done"], false);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent, key).json()["data"]["status"], "training");
  EXPECT_TRUE(wait_status(*server_, path, key, "trained"));
  auto after = server_->get(path, key).json();
  EXPECT_EQ(after["training"]["trained"], 1);
  EXPECT_EQ(after["training"]["done"], true);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent, key).json()["data"]["status"], "trained");
}

TEST_F(SourcesTraining, KilledServerResumesUnfinishedSources) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  std::string path = "/api/v1/agents/" + agent + "/sources";
  ASSERT_EQ(server_->post(path, key, text_body("Resume me after a crash.")).status, 201);
  ASSERT_TRUE(wait_status(*server_, path, key, "processing"));
  server_->kill_hard();
  server_->restart();
  EXPECT_TRUE(wait_status(*server_, path, key, "trained"));
  auto agent_json = server_->get("/api/v1/agents/" + agent, key).json()["data"];
  EXPECT_EQ(agent_json["status"], "trained");
  EXPECT_EQ(agent_json["characters"], 24);
}

}  // namespace
}  // namespace parley::e2e
