// What a chat writes, read back through the data API: the conversation with its exact messages
// (GET /api/v1/conversations/{id}), a lead saved from contact details (GET …/leads), and both
// as events (GET …/events/{event}).
#include "chat_support.h"

namespace parley::e2e {
namespace {

class ChatReadBack : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
  const Server& s() { return *server_; }
};
Server* ChatReadBack::server_ = nullptr;

TEST_F(ChatReadBack, ConversationShowsTheExactMessages) {
  auto c = chat_setup(s());
  auto first = chat(s(), c, {{"message", "Hello there"}, {"sessionId", "rb-1"}}).json();
  std::string conv = first["conversationId"];
  s().admin({"conversation", "takeover", conv, "--member", "Maria Lopez"});
  chat(s(), c, {{"message", "Anyone?"}, {"sessionId", "rb-1"}});
  s().admin({"conversation", "reply", conv, "--member", "Maria Lopez", "--text", "Maria here."});
  auto r = s().get("/api/v1/conversations/" + conv, c.key);
  ASSERT_EQ(r.status, 200) << r.body;
  auto d = r.json()["data"];
  EXPECT_EQ(d["id"], conv);
  EXPECT_EQ(d["agentId"], c.agent);
  EXPECT_EQ(d["sessionId"], first["sessionId"]);
  EXPECT_EQ(d["channel"], "api");
  EXPECT_TRUE(d["country"].is_null());
  EXPECT_TRUE(d["page"].is_null());
  auto m = d["messages"];
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0]["role"], "user");
  EXPECT_EQ(m[0]["content"], "Hello there");
  EXPECT_TRUE(m[0]["authorName"].is_null());
  EXPECT_EQ(m[1]["role"], "assistant");
  EXPECT_EQ(m[1]["content"], kDefaultFallback);
  EXPECT_TRUE(m[1]["authorName"].is_null());
  EXPECT_EQ(m[1]["sources"], Json::array());
  EXPECT_EQ(m[2]["role"], "user");
  EXPECT_EQ(m[2]["content"], "Anyone?");
  EXPECT_EQ(m[3]["role"], "assistant");
  EXPECT_EQ(m[3]["content"], "Maria here.");
  EXPECT_EQ(m[3]["authorName"], "Maria");
  EXPECT_EQ(d["lastActivityAt"], m[3]["createdAt"]);
}

TEST_F(ChatReadBack, LeadFromChatOncePerPerson) {
  auto c = chat_setup(s(), R"({"saveContactDetails": true})");
  std::string conv =
      chat(s(), c, {{"message", "my email is Ann.Lee@Example.com"}, {"sessionId", "ann"}})
          .json()["conversationId"];
  chat(s(), c, {{"message", "again ann.lee@example.com"}, {"sessionId", "ann"}});
  auto r = s().get("/api/v1/agents/" + c.agent + "/leads", c.key);
  ASSERT_EQ(r.status, 200) << r.body;
  auto data = r.json()["data"];
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0]["email"], "ann.lee@example.com");
  EXPECT_TRUE(data[0]["phone"].is_null());
  EXPECT_EQ(data[0]["source"], "chat");
  EXPECT_EQ(data[0]["conversationId"], conv);
  EXPECT_EQ(data[0]["submissionCount"], 2);
  EXPECT_GE(data[0]["lastSeenAt"].get<std::string>(), data[0]["collectedAt"].get<std::string>());
}

TEST_F(ChatReadBack, WidgetConversationCannotBeContinued) {
  auto c = chat_setup(s());
  std::string widget = s().admin({"conversation", "create", "--agent", c.agent, "--channel",
                                  "widget", "--session", "visitor-1"})["id"];
  auto r = chat(s(), c, {{"message", "hi"}, {"conversationId", widget}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "invalid_request");
  EXPECT_NE(r.error_message().find("'conversationId'"), std::string::npos);
  r = chat(s(), c, {{"message", "hi"}, {"conversationId", widget}, {"stream", true}});
  EXPECT_EQ(r.status, 400);
  // The widget's session id is not an API session: a new API conversation starts.
  auto j = chat(s(), c, {{"message", "hi"}, {"sessionId", "visitor-1"}}).json();
  EXPECT_NE(j["conversationId"], widget);
  auto list = s().get("/api/v1/agents/" + c.agent + "/conversations", c.key).json()["data"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["id"], j["conversationId"]);
  EXPECT_EQ(list[0]["channel"], "api");
  EXPECT_EQ(list[0]["messageCount"], 2);
  EXPECT_EQ(s().get("/api/v1/conversations/" + widget, c.key).json()["data"]["messages"].size(),
            0u);
}

TEST_F(ChatReadBack, ChatRecordsAreListedAsEvents) {
  auto c = chat_setup(s(), R"({"saveContactDetails": true})");
  std::string conv =
      chat(s(), c, {{"message", "write to bea@example.org"}}).json()["conversationId"];
  chat(s(), c, {{"message", "bea@example.org again"}, {"conversationId", conv}});
  auto created = s().get("/api/v1/agents/" + c.agent + "/events/conversation.created", c.key);
  ASSERT_EQ(created.status, 200) << created.body;
  auto ce = created.json()["data"];
  ASSERT_EQ(ce.size(), 1u);
  EXPECT_EQ(ce[0]["id"], conv);
  EXPECT_EQ(ce[0]["event"], "conversation.created");
  EXPECT_EQ(ce[0]["data"]["conversationId"], conv);
  EXPECT_EQ(ce[0]["data"]["channel"], "api");
  EXPECT_TRUE(ce[0]["data"]["page"].is_null());
  EXPECT_TRUE(ce[0]["data"]["country"].is_null());
  auto leads = s().get("/api/v1/agents/" + c.agent + "/events/lead.created", c.key);
  ASSERT_EQ(leads.status, 200) << leads.body;
  auto le = leads.json()["data"];
  ASSERT_EQ(le.size(), 1u);  // the repeat is not a new lead
  EXPECT_EQ(le[0]["event"], "lead.created");
  EXPECT_EQ(le[0]["data"]["email"], "bea@example.org");
  EXPECT_EQ(le[0]["data"]["source"], "chat");
  EXPECT_EQ(le[0]["data"]["conversationId"], conv);
  EXPECT_EQ(le[0]["data"]["agentId"], c.agent);
}

}  // namespace
}  // namespace parley::e2e

namespace parley::e2e {
namespace {

TEST(ChatWiring, LeadFromChatBecomesAContactWithSourceLead) {
  Server server(unlimited());
  auto c = chat_setup(server, R"({"saveContactDetails": true})");
  chat(server, c, {{"message", "reach me at Bo.Chen@Example.com or +4915112345678"}});
  auto r = server.get("/api/v1/agents/" + c.agent + "/contacts?email=bo.chen@example.com", c.key);
  ASSERT_EQ(r.status, 200) << r.body;
  auto data = r.json()["data"];
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0]["source"], "lead");
  EXPECT_EQ(data[0]["email"], "bo.chen@example.com");
}

TEST(ChatWiring, TopicAnalysisRunsOnChatsWhenOn) {
  Server server(unlimited());
  auto on = chat_setup(server, R"({"topicAnalysis": true})");
  std::string conv = chat(server, on, {{"message", "My invoice shows a double charge, I am very unhappy"}})
                         .json()["conversationId"];
  auto d = server.get("/api/v1/conversations/" + conv, on.key).json()["data"];
  EXPECT_FALSE(d["topics"].empty()) << d.dump();
  EXPECT_FALSE(d["sentiment"].is_null()) << d.dump();

  auto off = chat_setup(server);
  std::string plain = chat(server, off, {{"message", "My invoice shows a double charge, I am very unhappy"}})
                          .json()["conversationId"];
  auto p = server.get("/api/v1/conversations/" + plain, off.key).json()["data"];
  EXPECT_EQ(p["topics"], Json::array());
  EXPECT_TRUE(p["sentiment"].is_null());
}

}  // namespace
}  // namespace parley::e2e
