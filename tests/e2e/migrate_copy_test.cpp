// `parley migrate --from sqlite:PATH --to postgresql://...`: an installation with data on SQLite,
// moved to PostgreSQL, answers every read identically afterwards, its keys (stored as
// fingerprints) still authenticate and it goes on chatting; a target that holds data is refused.
#include <filesystem>

#include "chat_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

namespace fs = std::filesystem;

// Every read of the API for one agent, and of each conversation and contact it lists.
std::map<std::string, std::string> every_read(const Server& s, const ChatSetup& c) {
  std::map<std::string, std::string> out;
  auto read = [&](const std::string& path) {
    auto r = s.get(path, c.key);
    EXPECT_EQ(r.status, 200) << path << ": " << r.body;
    out[path] = r.body;
    return r;
  };
  std::string agent = "/api/v1/agents/" + c.agent;
  read("/api/v1/agents");
  read(agent);
  read(agent + "/sources");
  read(agent + "/leads");
  read(agent + "/events/lead.created");
  read(agent + "/events/form.submitted");
  for (auto& conv : read(agent + "/conversations").json()["data"])
    read("/api/v1/conversations/" + conv["id"].get<std::string>());
  for (auto& contact : read(agent + "/contacts").json()["data"])
    read("/api/v1/contacts/" + contact["id"].get<std::string>());
  return out;
}

TEST(MigrateCopy, AnInstallationMovedFromSqliteToPostgresqlAnswersEveryReadIdentically) {
  if (!on_postgres()) GTEST_SKIP() << "needs a PostgreSQL cluster to move to";
  char tpl[] = "/tmp/parley-e2e-sqlite-XXXXXX";
  std::string sqlite_dir = mkdtemp(tpl);
  std::string sqlite_url = "sqlite:" + sqlite_dir + "/parley.db";
  Env on_sqlite = unlimited();
  on_sqlite["PARLEY_DATABASE_URL"] = sqlite_url;
  Server before(on_sqlite);
  auto c = chat_setup(before);
  std::string agent = "/api/v1/agents/" + c.agent;
  ASSERT_EQ(before.post(agent + "/sources", c.key,
                        R"({"type": "text", "title": "Hours", "content": "We open at nine and close at five."})")
                .status,
            201);
  ASSERT_EQ(before.post(agent + "/sources", c.key,
                        R"({"type": "qa", "question": "Do you ship abroad?", "answer": "Yes, to 30 countries."})")
                .status,
            201);
  for (int i = 0; i < 50 && before.get(agent, c.key).json()["data"]["status"] != "trained"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(chat(before, c, {{"message", "When do you open?"}, {"sessionId", "one"}}).status, 200);
  ASSERT_EQ(chat(before, c, {{"message", "My email is ana@example.com, do you ship abroad?"}}).status, 200);
  ASSERT_EQ(before.post(agent + "/contacts", c.key,
                        R"({"external_id": "crm-1", "email": "bo@example.com", "name": "Bo", "attributes": {"tier": "gold"}})")
                .status,
            201);
  before.admin({"record", "form", "--agent", c.agent, "--form", "contact"});
  auto reads = every_read(before, c);
  before.stop();

  // An empty PostgreSQL installation (migrated, no data) to move into.
  Server after(unlimited());
  std::string target = after.database_env().at("PARLEY_DATABASE_URL");
  after.stop();
  auto moved = run_process({PARLEY_BINARY, "migrate", "--from", sqlite_url, "--to", target}, {});
  ASSERT_EQ(moved.exit_code, 0) << moved.err << moved.out;
  auto report = Json::parse(moved.out);
  EXPECT_EQ(report["verified"], true);
  std::map<std::string, int64_t> rows;
  for (auto& t : report["tables"]) {
    EXPECT_EQ(t["rows"], t["rowsInTarget"]) << t;
    rows[t["table"]] = t["rows"];
  }
  EXPECT_EQ(rows["accounts"], 1);
  EXPECT_EQ(rows["api_keys"], 1);
  EXPECT_EQ(rows["sources"], 2);
  EXPECT_EQ(rows["conversations"], 2);
  EXPECT_EQ(rows["messages"], 4);
  EXPECT_EQ(rows["contacts"], 1);

  after.restart();
  auto moved_reads = every_read(after, c);
  EXPECT_EQ(moved_reads.size(), reads.size());
  for (const auto& [path, body] : reads) {
    ASSERT_TRUE(moved_reads.count(path)) << path;
    EXPECT_EQ(Json::parse(moved_reads[path]), Json::parse(body)) << path;
  }
  // The moved installation goes on: the conversation continues, the knowledge answers.
  auto next = chat(after, c, {{"message", "When do you open?"}, {"sessionId", "one"}});
  ASSERT_EQ(next.status, 200) << next.body;
  EXPECT_NE(next.json()["reply"].get<std::string>().find("nine"), std::string::npos) << next.body;
  EXPECT_EQ(after.get(agent, c.key).json()["data"]["counts"]["messages"], 6);

  // A second copy into the now populated database is refused and changes nothing.
  after.stop();
  auto again = run_process({PARLEY_BINARY, "migrate", "--from", sqlite_url, "--to", target}, {});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("already holds data"), std::string::npos) << again.err;
  after.restart();
  EXPECT_EQ(after.get(agent, c.key).json()["data"]["counts"]["messages"], 6);
  std::error_code ec;
  fs::remove_all(sqlite_dir, ec);
}

}  // namespace
}  // namespace parley::e2e
