// Exporting an agent's conversations (GET /console/v1/agents/{agentId}/conversations/export and
// `parley admin conversation export`): both formats with every column, the date range, batches
// past the first, the roles, validation and another account's agent.
#include <set>
#include <sstream>

#include "harness.h"

namespace parley::e2e {
namespace {

// A write through the database's own client beside the running server: on SQLite the client
// waits for the server's writer instead of failing at once with "database is locked".
class RecordsExport : public SeededServerTest {
 protected:
  void SetUp() override {
    SeededServerTest::SetUp();
    admin_token_ = create_member(*server_, account_, "admin")["token"];
  }
  std::string path(const std::string& query) const {
    return "/console/v1/agents/" + agent_ + "/conversations/export" + query;
  }
  // Creates a conversation on `day` (YYYY-MM-DD) with the two messages; returns its id.
  std::string conversation(const std::string& day, const std::string& visitor,
                           const std::string& reply) const {
    Json messages = Json::array(
        {{{"role", "user"}, {"content", visitor}, {"createdAt", day + "T10:00:00Z"}},
         {{"role", "assistant"}, {"content", reply}, {"createdAt", day + "T10:00:01Z"}}});
    return server_->admin({"conversation", "create", "--agent", agent_, "--created-at",
                           day + "T10:00:00Z", "--messages", messages.dump()})["id"];
  }
  // The export as `token` asks for it; the server's log joins a failure.
  HttpResponse get(const std::string& query, const std::string& token) const {
    auto r = server_->get(path(query), token);
    if (r.status == 0) ADD_FAILURE() << "no answer; server log:\n" << server_->log();
    return r;
  }
  std::vector<Json> lines(const std::string& body) const {
    std::vector<Json> out;
    std::istringstream in(body);
    for (std::string line; std::getline(in, line);) {
      auto j = Json::parse(line, nullptr, false);
      EXPECT_FALSE(j.is_discarded()) << line;
      out.push_back(j);
    }
    return out;
  }
  std::string admin_token_;
};

TEST_F(RecordsExport, JsonLinesHoldsOneConversationPerLineWithItsMessagesOldestFirst) {
  std::string late = conversation("2026-02-01", "Where is my order?", "It ships today.");
  std::string early = conversation("2026-01-10", "Do you open on Sunday?", "We open at ten.");
  // What the support loop adds to a reply (migration 0041), set as its engine would.
  server_->write_sql(
      "UPDATE messages SET outcome = 'low_confidence', confidence = 0.25, rating = 'down', "
      "rated_at = 1768039200000 WHERE conversation_id = '" +
      early + "' AND seq = 2");
  auto r = get("?format=jsonl", admin_token_);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/x-ndjson");
  EXPECT_NE(r.header("content-disposition").find("attachment; filename=\"conversations-" + agent_),
            std::string::npos);
  EXPECT_EQ(r.header("cache-control"), "no-store");
  auto got = lines(r.body);
  ASSERT_EQ(got.size(), 2u) << r.body;
  EXPECT_EQ(got[0]["id"], early);
  EXPECT_EQ(got[1]["id"], late);
  EXPECT_EQ(got[0]["channel"], "widget");
  EXPECT_EQ(got[0]["createdAt"], "2026-01-10T10:00:00.000Z");
  EXPECT_EQ(got[0]["lastActivityAt"], "2026-01-10T10:00:01.000Z");
  EXPECT_TRUE(got[0]["contactId"].is_null());
  EXPECT_TRUE(got[0]["csat"].is_null());
  EXPECT_EQ(got[0]["messageCount"], 2);
  ASSERT_EQ(got[0]["messages"].size(), 2u);
  auto visitor = got[0]["messages"][0], reply = got[0]["messages"][1];
  EXPECT_EQ(visitor["role"], "user");
  EXPECT_EQ(visitor["content"], "Do you open on Sunday?");
  EXPECT_EQ(visitor["seq"], 1);
  EXPECT_TRUE(visitor["outcome"].is_null());
  EXPECT_EQ(reply["content"], "We open at ten.");
  EXPECT_EQ(reply["outcome"], "low_confidence");
  EXPECT_DOUBLE_EQ(reply["confidence"].get<double>(), 0.25);
  EXPECT_EQ(reply["rating"], "down");
  EXPECT_EQ(reply["ratedAt"], "2026-01-10T10:00:00.000Z");
  EXPECT_EQ(reply["sources"], Json::array());
}

TEST_F(RecordsExport, CsvHasOneRowPerMessageQuotedAndSafeForSpreadsheets) {
  std::string id = conversation("2026-01-10", "Hello, \"shop\"\nsecond line", "=HYPERLINK(\"x\")");
  auto r = get("?format=csv", admin_token_);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "text/csv; charset=utf-8");
  EXPECT_EQ(
      r.body.rfind(
          "conversationId,channel,createdAt,lastActivityAt,contactId,visitorId,country,page,topics,"
          "sentiment,handoffRequestedAt,liveChatStatus,csatScore,csatComment,messageId,seq,role,"
          "authorName,content,messageCreatedAt,outcome,confidence,rating,ratedAt,sources\r\n",
          0),
      0u)
      << r.body;
  // The comma, quotes and line break stay inside one quoted field; the formula gets an apostrophe.
  EXPECT_NE(r.body.find(",user,,\"Hello, \"\"shop\"\"\nsecond line\",2026-01-10T10:00:00.000Z,"),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find(",assistant,,\"'=HYPERLINK(\"\"x\"\")\","), std::string::npos) << r.body;
  size_t rows = 0;
  for (size_t at = 0; (at = r.body.find("\r\n" + id + ",widget,", at)) != std::string::npos; ++at)
    ++rows;
  EXPECT_EQ(rows, 2u) << r.body;
}

TEST_F(RecordsExport, TheRangeIsOnCreatedAtWithBothDaysIncluded) {
  conversation("2026-01-10", "a", "b");
  std::string mid = conversation("2026-01-15", "c", "d");
  std::string last = conversation("2026-01-31", "e", "f");
  conversation("2026-02-01", "g", "h");
  auto r = get("?format=jsonl&from=2026-01-12&to=2026-01-31", admin_token_);
  ASSERT_EQ(r.status, 200) << r.body;
  auto got = lines(r.body);
  ASSERT_EQ(got.size(), 2u) << r.body;
  EXPECT_EQ(got[0]["id"], mid);
  EXPECT_EQ(got[1]["id"], last);
  // An empty range is an empty export (CSV: the header alone).
  auto none = get("?format=csv&from=2025-01-01&to=2025-01-31", admin_token_);
  ASSERT_EQ(none.status, 200);
  EXPECT_EQ(std::count(none.body.begin(), none.body.end(), '\n'), 1);
}

TEST_F(RecordsExport, ManyConversationsCreatedAtOnceComeOutOnceEachAcrossBatches) {
  auto made = server_->admin({"conversation", "create", "--agent", agent_, "--created-at",
                              "2026-01-10T10:00:00Z", "--count", "450", "--messages",
                              R"([{"role":"user","content":"hi"}])"});
  ASSERT_EQ(made["data"].size(), 450u);
  auto r = get("", admin_token_);  // JSON Lines by default
  ASSERT_EQ(r.status, 200);
  std::set<std::string> ids;
  for (const auto& j : lines(r.body)) {
    ids.insert(j["id"].get<std::string>());
    EXPECT_EQ(j["messages"].size(), 1u);
  }
  EXPECT_EQ(ids.size(), 450u);

  // The admin command writes the same export on stdout.
  Env env = server_->database_env();
  auto out = run_process({PARLEY_BINARY, "admin", "conversation", "export", "--agent", agent_,
                          "--format", "jsonl", "--from", "2026-01-10", "--to", "2026-01-10"},
                         env);
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, r.body);
  auto csv = run_process(
      {PARLEY_BINARY, "admin", "conversation", "export", "--agent", agent_, "--format", "csv"},
      env);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 451);
}

TEST_F(RecordsExport, BadQueriesAreRefusedNamingTheField) {
  auto expect_invalid = [&](const std::string& query, const std::string& field) {
    auto r = get((query), admin_token_);
    EXPECT_EQ(r.status, 400) << query << " " << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_NE(r.error_message().find("'" + field + "'"), std::string::npos) << r.body;
  };
  expect_invalid("?format=xml", "format");
  expect_invalid("?from=yesterday", "from");
  expect_invalid("?to=2026-13-45", "to");
  expect_invalid("?from=2026-02-01&to=2026-01-01", "from");
  auto cli = server_->admin({"conversation", "export", "--agent", agent_, "--format", "xml"}, true);
  EXPECT_NE(cli["stderr"].get<std::string>().find("invalid_request"), std::string::npos);
  auto unknown = server_->admin({"conversation", "export", "--agent", "agt_unknown"}, true);
  EXPECT_NE(unknown["stderr"].get<std::string>().find("not_found"), std::string::npos);
}

TEST_F(RecordsExport, OnlyOwnersAndAdminsExportAndOnlyTheirOwnAgents) {
  for (const char* role : {"viewer", "editor"}) {
    auto r = get("", create_member(*server_, account_, role)["token"]);
    EXPECT_EQ(r.status, 403) << role;
    EXPECT_EQ(r.error_code(), "forbidden");
    EXPECT_NE(r.error_message().find("admin"), std::string::npos) << r.body;
  }
  EXPECT_EQ(get("", create_member(*server_, account_, "owner")["token"]).status, 200);
  EXPECT_EQ(get("", "").status, 401);
  std::string other = server_->create_account();
  auto stranger = create_member(*server_, other, "owner")["token"];
  auto r = get("", stranger);
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(r.error_code(), "not_found");
}

}  // namespace
}  // namespace parley::e2e
