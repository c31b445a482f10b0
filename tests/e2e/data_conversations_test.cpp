// Conversations: every field of the summary and of the single conversation (live chat, CSAT,
// hand-off, messages), topic analysis on and off, `since`, deletion, scopes and other accounts.
#include "harness.h"

namespace parley::e2e {
namespace {

class DataConversations : public SeededServerTest {
 protected:
  Json list(const std::string& query = "") const {
    auto r = server_->get("/api/v1/agents/" + agent_ + "/conversations" + query, key_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }
  static void expect_error(const HttpResponse& r, long status, const std::string& code,
                           const std::string& mention = "") {
    EXPECT_EQ(r.status, status) << r.body;
    EXPECT_EQ(r.error_code(), code) << r.body;
    if (!mention.empty()) {
      EXPECT_NE(r.error_message().find(mention), std::string::npos) << r.body;
    }
  }
};

TEST_F(DataConversations, WidgetConversationShowsEveryField) {
  auto created = server_->admin(
      {"conversation", "create", "--agent", agent_, "--channel", "widget", "--country", "DE",
       "--page", "https://shop.example.com/pricing", "--session", "visitor-42", "--created-at",
       "2026-03-01T10:00:00.000Z", "--messages",
       R"([{"role":"user","content":"Do you ship to Berlin?","createdAt":"2026-03-01T10:00:01.000Z"},
           {"role":"assistant","content":"Yes, in 2 days.","sources":[{"title":"Shipping","url":"https://shop.example.com/shipping"}],"createdAt":"2026-03-01T10:00:02.000Z"},
           {"role":"assistant","content":"Hi, Maria here.","authorName":"Maria","createdAt":"2026-03-01T10:05:00.000Z"}])"});
  std::string id = created["id"];
  server_->admin({"conversation", "set-live-chat", id, "--status", "requested", "--at",
                  "2026-03-01T10:03:00.000Z"});
  server_->admin({"conversation", "set-live-chat", id, "--status", "active", "--at",
                  "2026-03-01T10:04:00.000Z"});
  server_->admin({"conversation", "set-live-chat", id, "--status", "ended", "--at",
                  "2026-03-01T10:06:00.000Z"});
  server_->admin({"conversation", "set-handoff", id, "--at", "2026-03-01T10:02:30.000Z"});
  server_->admin({"conversation", "set-csat", id, "--score", "4", "--comment", "Quick answer",
                  "--at", "2026-03-01T10:07:00.000Z"});

  auto r = server_->get("/api/v1/conversations/" + id, key_);
  ASSERT_EQ(r.status, 200) << r.body;
  auto c = r.json()["data"];
  EXPECT_EQ(c["id"], id);
  EXPECT_EQ(c["agentId"], agent_);
  EXPECT_EQ(c["sessionId"], "visitor-42");
  EXPECT_EQ(c["channel"], "widget");
  EXPECT_EQ(c["createdAt"], "2026-03-01T10:00:00.000Z");
  EXPECT_EQ(c["lastActivityAt"], "2026-03-01T10:05:00.000Z");
  EXPECT_EQ(c["country"], "DE");
  EXPECT_EQ(c["page"], "https://shop.example.com/pricing");
  EXPECT_EQ(c["topics"], Json::array());
  EXPECT_TRUE(c["sentiment"].is_null());
  EXPECT_EQ(c["handoffRequestedAt"], "2026-03-01T10:02:30.000Z");
  EXPECT_EQ(c["liveChat"], (Json{{"status", "ended"},
                                 {"startedAt", "2026-03-01T10:04:00.000Z"},
                                 {"endedAt", "2026-03-01T10:06:00.000Z"}}));
  EXPECT_EQ(
      c["csat"],
      (Json{{"score", 4}, {"comment", "Quick answer"}, {"ratedAt", "2026-03-01T10:07:00.000Z"}}));
  ASSERT_EQ(c["messages"].size(), 3u);
  auto m0 = c["messages"][0];
  EXPECT_TRUE(m0["id"].get<std::string>().rfind("msg_", 0) == 0);
  EXPECT_EQ(m0["role"], "user");
  EXPECT_EQ(m0["content"], "Do you ship to Berlin?");
  EXPECT_EQ(m0["createdAt"], "2026-03-01T10:00:01.000Z");
  EXPECT_TRUE(m0["authorName"].is_null());
  EXPECT_EQ(m0["sources"], Json::array());
  EXPECT_EQ(c["messages"][1]["sources"],
            Json::parse(R"([{"title":"Shipping","url":"https://shop.example.com/shipping"}])"));
  EXPECT_EQ(c["messages"][2]["role"], "assistant");
  EXPECT_EQ(c["messages"][2]["authorName"], "Maria");

  auto s = list()["data"];
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0], (Json{{"id", id},
                        {"sessionId", "visitor-42"},
                        {"channel", "widget"},
                        {"createdAt", "2026-03-01T10:00:00.000Z"},
                        {"lastActivityAt", "2026-03-01T10:05:00.000Z"},
                        {"country", "DE"},
                        {"page", "https://shop.example.com/pricing"},
                        {"messageCount", 3},
                        {"topics", Json::array()},
                        {"sentiment", nullptr},
                        {"liveChat", "ended"},
                        {"csatScore", 4}}));
}

TEST_F(DataConversations, ApiConversationHasNullsWhereNothingHappened) {
  auto created = server_->admin({"conversation", "create", "--agent", agent_, "--channel", "api"});
  std::string id = created["id"];
  auto c = server_->get("/api/v1/conversations/" + id, key_).json()["data"];
  EXPECT_EQ(c["channel"], "api");
  EXPECT_TRUE(c["sessionId"].get<std::string>().rfind("svcapi", 0) == 0);
  EXPECT_TRUE(c["country"].is_null());
  EXPECT_TRUE(c["page"].is_null());
  EXPECT_TRUE(c["handoffRequestedAt"].is_null());
  EXPECT_TRUE(c["liveChat"].is_null());
  EXPECT_TRUE(c["csat"].is_null());
  EXPECT_EQ(c["messages"], Json::array());
  auto s = list()["data"][0];
  EXPECT_TRUE(s["liveChat"].is_null());
  EXPECT_TRUE(s["csatScore"].is_null());
  EXPECT_EQ(s["messageCount"], 0);
  server_->admin({"conversation", "set-live-chat", id, "--status", "requested"});
  EXPECT_EQ(list()["data"][0]["liveChat"], "requested");
  auto live = server_->get("/api/v1/conversations/" + id, key_).json()["data"]["liveChat"];
  EXPECT_EQ(live["status"], "requested");
  EXPECT_TRUE(live["startedAt"].is_null());
  EXPECT_TRUE(live["endedAt"].is_null());
  server_->admin({"conversation", "set-live-chat", id, "--status", "active"});
  EXPECT_EQ(list()["data"][0]["liveChat"], "active");
}

TEST_F(DataConversations, TopicAnalysisWhenTheSettingIsOn) {
  auto agent = server_->create_agent(account_, R"({"topicAnalysis": true})");
  auto created = server_->admin(
      {"conversation", "create", "--agent", agent, "--messages",
       R"([{"role":"user","content":"My order arrived broken, I want a refund for the order."},
           {"role":"assistant","content":"Sorry! Refunds take 3 days. Shipping shipping shipping."},
           {"role":"user","content":"The order tracking shows delivered but the package is broken"}])"});
  std::string id = created["id"];
  auto c = server_->get("/api/v1/conversations/" + id, key_).json()["data"];
  EXPECT_EQ(c["topics"], (Json{"order", "arrived", "tracking"}));
  EXPECT_EQ(c["sentiment"], "negative");
  server_->admin({"conversation", "add-message", id, "--role", "user", "--content",
                  "Tracking tracking tracking works now, great, thanks, perfect, not bad"});
  c = server_->get("/api/v1/conversations/" + id, key_).json()["data"];
  EXPECT_EQ(c["topics"], (Json{"tracking", "order", "arrived"}));
  EXPECT_EQ(c["sentiment"], "positive");
  auto s = server_->get("/api/v1/agents/" + agent + "/conversations", key_).json()["data"][0];
  EXPECT_EQ(s["topics"], c["topics"]);
  EXPECT_EQ(s["sentiment"], "positive");
}

TEST_F(DataConversations, SinceMeansAMessageAtOrAfterIt) {
  auto old_active = server_
                        ->admin({"conversation", "create", "--agent", agent_, "--created-at",
                                 "2026-01-01T00:00:00.000Z"})["id"]
                        .get<std::string>();
  server_->admin({"conversation", "add-message", old_active, "--role", "user", "--content",
                  "still here", "--at", "2026-03-01T00:00:00.000Z"});
  auto quiet = server_
                   ->admin({"conversation", "create", "--agent", agent_, "--created-at",
                            "2026-02-01T00:00:00.000Z", "--messages",
                            R"([{"role":"user","content":"hi"}])"})["id"]
                   .get<std::string>();
  auto page = list("?since=2026-03-01T00:00:00.000Z");
  ASSERT_EQ(page["data"].size(), 1u);
  EXPECT_EQ(page["data"][0]["id"], old_active);
  EXPECT_EQ(list("?since=2026-03-01T00:00:00.001Z")["data"].size(), 0u);
  auto both = list("?since=2026-02-01")["data"];
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0]["id"], quiet);  // newest created first, whatever the activity
  EXPECT_EQ(both[1]["id"], old_active);
  EXPECT_EQ(list("?since=2026-02-01T01:00:00%2B01:00")["data"].size(), 2u);
}

// A value outside what its column holds is refused by the command, naming the option, and
// changes nothing: on PostgreSQL no CHECK constraint stands behind these columns
// (docs/decisions/postgresql.md, migration 0054).
TEST_F(DataConversations, ConversationCommandsRefuseValuesTheirColumnsDoNotHoldAndChangeNothing) {
  auto mentions = [](const Json& out, const std::string& what) {
    return out["stderr"].get<std::string>().find(what) != std::string::npos;
  };
  EXPECT_TRUE(mentions(
      server_->admin({"conversation", "create", "--agent", agent_, "--channel", "sms"}, true),
      "'channel'"));
  EXPECT_TRUE(mentions(server_->admin({"conversation", "create", "--agent", agent_, "--messages",
                                       R"([{"role":"system","content":"You are a bot."}])"},
                                      true),
                       "'role'"));
  EXPECT_EQ(list()["data"].size(), 0u);

  std::string id =
      server_->admin({"conversation", "create", "--agent", agent_, "--channel", "widget",
                      "--messages", R"([{"role":"user","content":"Hello"}])"})["id"];
  EXPECT_TRUE(
      mentions(server_->admin(
                   {"conversation", "add-message", id, "--role", "system", "--content", "x"}, true),
               "'role'"));
  for (const char* score : {"0", "6"}) {
    EXPECT_TRUE(mentions(server_->admin({"conversation", "set-csat", id, "--score", score}, true),
                         "'score'"))
        << score;
  }
  EXPECT_TRUE(
      mentions(server_->admin({"conversation", "set-live-chat", id, "--status", "paused"}, true),
               "'status'"));

  auto c = server_->get("/api/v1/conversations/" + id, key_).json()["data"];
  EXPECT_EQ(c["channel"], "widget");
  EXPECT_EQ(c["messages"].size(), 1u);
  EXPECT_TRUE(c["csat"].is_null());
  EXPECT_TRUE(c["liveChat"].is_null());
  EXPECT_EQ(list()["data"].size(), 1u);
}

TEST_F(DataConversations, DeletedConversationIsGoneAndItsLeadsRemain) {
  auto id = server_->admin({"conversation", "create", "--agent", agent_})["id"].get<std::string>();
  server_->admin({"lead", "create", "--agent", agent_, "--source", "chat", "--email",
                  "x@example.com", "--conversation", id});
  auto before = server_->get("/api/v1/agents/" + agent_ + "/leads", key_).json()["data"];
  EXPECT_EQ(before[0]["conversationId"], id);
  auto out = server_->admin({"conversation", "delete", id});
  EXPECT_EQ(out["deleted"], true);
  expect_error(server_->get("/api/v1/conversations/" + id, key_), 404, "not_found");
  EXPECT_EQ(list()["data"].size(), 0u);
  auto after = server_->get("/api/v1/agents/" + agent_ + "/leads", key_).json()["data"];
  ASSERT_EQ(after.size(), 1u);
  EXPECT_TRUE(after[0]["conversationId"].is_null());
  server_->admin({"conversation", "delete", id}, true);
}

TEST_F(DataConversations, OtherAccountsConversationsAreNotFound) {
  auto id = server_->admin({"conversation", "create", "--agent", agent_})["id"].get<std::string>();
  auto other_key = server_->create_key(server_->create_account());
  expect_error(server_->get("/api/v1/conversations/" + id, other_key), 404, "not_found");
  expect_error(server_->get("/api/v1/agents/" + agent_ + "/conversations", other_key), 404,
               "not_found");
  expect_error(server_->get("/api/v1/conversations/cnv_missing", key_), 404, "not_found");
  expect_error(server_->get("/api/v1/agents/agt_missing/conversations", key_), 404, "not_found");
  // Any agent of the account.
  auto second_agent = server_->create_agent(account_);
  auto other =
      server_->admin({"conversation", "create", "--agent", second_agent})["id"].get<std::string>();
  EXPECT_EQ(server_->get("/api/v1/conversations/" + other, key_).status, 200);
}

TEST_F(DataConversations, ScopeConversationsReadIsRequired) {
  auto id = server_->admin({"conversation", "create", "--agent", agent_})["id"].get<std::string>();
  auto leads_only = server_->create_key(account_, "leads:read,contacts:write,agents:read");
  expect_error(server_->get("/api/v1/agents/" + agent_ + "/conversations", leads_only), 403,
               "insufficient_scope", "conversations:read");
  expect_error(server_->get("/api/v1/conversations/" + id, leads_only), 403, "insufficient_scope");
  auto reader = server_->create_key(account_, "conversations:read");
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_ + "/conversations", reader).status, 200);
  EXPECT_EQ(server_->get("/api/v1/conversations/" + id, reader).status, 200);
}

}  // namespace
}  // namespace parley::e2e
