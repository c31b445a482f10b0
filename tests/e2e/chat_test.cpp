// POST /api/v1/agents/{agentId}/chat: the reply's shape, every request rule, the order of checks,
// conversation continuity, storage as the conversation is written, and streaming.
#include "chat_support.h"

namespace parley::e2e {
namespace {

class ChatApi : public ::testing::Test {
 protected:
  // Each test has its own server, started by its first line, start(), from a seed of the
  // account, agent (with `settings`) and key it begins with (made once per suite and settings).
  ChatSetup start(const std::string& settings = "") {
    const Seed& seeded = chat_seed("ChatApi", settings);
    server_ = new Server(unlimited(), {}, &seeded);
    return chat_setup_of(seeded);
  }
  void TearDown() override {
    delete server_;
    server_ = nullptr;
  }
  static Server* server_;
  const Server& s() { return *server_; }
};
Server* ChatApi::server_ = nullptr;

void expect_invalid(const HttpResponse& r, const std::string& field) {
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(r.error_code(), "invalid_request") << r.body;
  EXPECT_NE(r.error_message().find("'" + field + "'"), std::string::npos) << r.body;
}

TEST_F(ChatApi, ReplyHasEveryFieldAndFallsBackWithoutKnowledge) {
  auto c = start();
  auto r = chat(s(), c, {{"message", "Hello there"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  auto j = r.json();
  EXPECT_EQ(j.size(), 11u);
  EXPECT_EQ(j["reply"], kDefaultFallback);
  EXPECT_EQ(j["conversationId"].get<std::string>().rfind("cnv_", 0), 0u);
  EXPECT_EQ(j["sessionId"].get<std::string>().rfind("svcapi", 0), 0u);
  EXPECT_EQ(j["sources"], Json::array());
  EXPECT_EQ(j["followUps"], Json::array());
  EXPECT_EQ(j["buttons"], Json::array());
  EXPECT_EQ(j["products"], Json::array());
  EXPECT_TRUE(j["form"].is_null());
  EXPECT_TRUE(j["leadForm"].is_null());
  EXPECT_TRUE(j["booking"].is_null());
  EXPECT_TRUE(j["liveChat"].is_null());
  EXPECT_EQ(r.header("x-ratelimit-limit"), "1000000");
}

TEST_F(ChatApi, FallbackMessageSettingIsUsed) {
  auto c = start(R"({"fallbackMessage": "Please email help@example.com."})");
  auto r = chat(s(), c, {{"message", "What is the meaning of life?"}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.json()["reply"], "Please email help@example.com.");
}

TEST_F(ChatApi, MessageRules) {
  auto c = start();
  expect_invalid(chat(s(), c, Json::object()), "message");
  expect_invalid(chat(s(), c, {{"message", nullptr}}), "message");
  expect_invalid(chat(s(), c, {{"message", 42}}), "message");
  expect_invalid(chat(s(), c, {{"message", ""}}), "message");
  expect_invalid(chat(s(), c, {{"message", " \n\t "}}), "message");
  expect_invalid(chat(s(), c, {{"message", std::string(10'001, 'a')}}), "message");
  EXPECT_EQ(chat(s(), c, {{"message", std::string(10'000, 'a')}}).status, 200);
  // Characters, not bytes: 10,000 two-byte characters are allowed.
  std::string accents;
  for (int i = 0; i < 10'000; ++i) accents += "\xC3\xA9";
  EXPECT_EQ(chat(s(), c, {{"message", accents}}).status, 200);
}

TEST_F(ChatApi, OtherFieldRules) {
  auto c = start();
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"sessionId", std::string(101, 's')}}),
                 "sessionId");
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"sessionId", ""}}), "sessionId");
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"sessionId", 7}}), "sessionId");
  EXPECT_EQ(chat(s(), c, {{"message", "hi"}, {"sessionId", std::string(100, 's')}}).status, 200);
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"conversationId", 7}}), "conversationId");
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"conversationId", ""}}), "conversationId");
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"stream", "yes"}}), "stream");
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"timeZone", "Mars/Olympus"}}), "timeZone");
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"timeZone", 1}}), "timeZone");
  EXPECT_EQ(chat(s(), c, {{"message", "hi"}, {"timeZone", "America/New_York"}}).status, 200);
  EXPECT_EQ(chat(s(), c, {{"message", "hi"}, {"stream", false}}).status, 200);
}

TEST_F(ChatApi, BodyMustBeAJsonObject) {
  auto c = start();
  auto r = chat_raw(s(), c, "[1]");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "invalid_request");
  EXPECT_EQ(chat_raw(s(), c, "{nope").error_code(), "invalid_request");
}

TEST_F(ChatApi, OrderOfChecks) {
  auto c = start();
  auto reader = s().create_key(c.account, "agents:read");
  // Scope before input.
  auto r = s().post("/api/v1/agents/" + c.agent + "/chat", reader, "{}");
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "insufficient_scope");
  // Input before the agent.
  r = s().post("/api/v1/agents/agt_missing/chat", c.key, "{}");
  EXPECT_EQ(r.error_code(), "invalid_request");
  r = s().post("/api/v1/agents/agt_missing/chat", c.key, R"({"message":"hi"})");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  // Another account's agent is not found.
  auto other = chat_setup(s());
  r = s().post("/api/v1/agents/" + other.agent + "/chat", c.key, R"({"message":"hi"})");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  // A private agent: input first, then 403.
  std::string priv =
      s().admin({"agent", "create", "--account", c.account, "--name", "Inner", "--private"})["id"];
  r = s().post("/api/v1/agents/" + priv + "/chat", c.key, R"({"message":""})");
  EXPECT_EQ(r.error_code(), "invalid_request");
  r = s().post("/api/v1/agents/" + priv + "/chat", c.key, R"({"message":"hi"})");
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "agent_private");
  // The private agent's refusal comes before a conversation lookup.
  r = s().post("/api/v1/agents/" + priv + "/chat", c.key,
               R"({"message":"hi","conversationId":"cnv_x"})");
  EXPECT_EQ(r.error_code(), "agent_private");
}

TEST_F(ChatApi, WithoutIdsEachMessageStartsAConversation) {
  auto c = start();
  auto a = chat(s(), c, {{"message", "one"}}).json();
  auto b = chat(s(), c, {{"message", "two"}}).json();
  EXPECT_NE(a["conversationId"], b["conversationId"]);
  EXPECT_NE(a["sessionId"], b["sessionId"]);
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 2);
  EXPECT_EQ(agent_counts(s(), c)["messages"], 4);
}

TEST_F(ChatApi, CallersSessionIdAlwaysContinuesTheSameConversation) {
  auto c = start();
  auto a = chat(s(), c, {{"message", "one"}, {"sessionId", "customer-17"}}).json();
  auto b = chat(s(), c, {{"message", "two"}, {"sessionId", "customer-17"}}).json();
  EXPECT_EQ(a["conversationId"], b["conversationId"]);
  EXPECT_EQ(a["sessionId"], b["sessionId"]);
  EXPECT_EQ(a["sessionId"].get<std::string>().rfind("svcapi_", 0), 0u);
  EXPECT_NE(a["sessionId"], "customer-17");
  // The sessionId from a reply is accepted too.
  auto d = chat(s(), c, {{"message", "three"}, {"sessionId", a["sessionId"]}}).json();
  EXPECT_EQ(d["conversationId"], a["conversationId"]);
  // A fresh session id of the caller's starts a new conversation; the same one on another agent
  // too.
  auto e = chat(s(), c, {{"message", "four"}, {"sessionId", "customer-18"}}).json();
  EXPECT_NE(e["conversationId"], a["conversationId"]);
  auto conv = show_conversation(s(), a["conversationId"]);
  EXPECT_EQ(conv["messages"].size(), 6u);
}

TEST_F(ChatApi, ConversationIdContinuesOnlyThisAgentsConversations) {
  auto c = start();
  auto a = chat(s(), c, {{"message", "one"}}).json();
  auto b = chat(s(), c, {{"message", "two"}, {"conversationId", a["conversationId"]}});
  ASSERT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(b.json()["conversationId"], a["conversationId"]);
  EXPECT_EQ(b.json()["sessionId"], a["sessionId"]);
  // Unknown, another agent's of the same account, another account's: 404.
  auto r = chat(s(), c, {{"message", "x"}, {"conversationId", "cnv_doesnotexist"}});
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  ChatSetup sibling = c;
  sibling.agent = s().create_agent(c.account);
  r = chat(s(), sibling, {{"message", "x"}, {"conversationId", a["conversationId"]}});
  EXPECT_EQ(r.status, 404);
  auto other = chat_setup(s());
  r = chat(s(), other, {{"message", "x"}, {"conversationId", a["conversationId"]}});
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  EXPECT_EQ(show_conversation(s(), a["conversationId"])["messages"].size(), 4u);
}

TEST_F(ChatApi, ConversationIsStoredAsWritten) {
  auto c = start();
  auto r = chat(s(), c, {{"message", "Hello, is anyone there?"}}).json();
  auto conv = show_conversation(s(), r["conversationId"]);
  EXPECT_EQ(conv["agentId"], c.agent);
  EXPECT_EQ(conv["sessionId"], r["sessionId"]);
  EXPECT_EQ(conv["channel"], "api");
  EXPECT_TRUE(conv["country"].is_null());
  EXPECT_TRUE(conv["page"].is_null());
  EXPECT_TRUE(conv["liveChat"].is_null());
  ASSERT_EQ(conv["messages"].size(), 2u);
  auto user = conv["messages"][0];
  auto reply = conv["messages"][1];
  EXPECT_EQ(user["role"], "user");
  EXPECT_EQ(user["content"], "Hello, is anyone there?");
  EXPECT_TRUE(user["authorName"].is_null());
  EXPECT_EQ(user["sources"], Json::array());
  EXPECT_EQ(reply["role"], "assistant");
  EXPECT_EQ(reply["content"], kDefaultFallback);
  EXPECT_TRUE(reply["authorName"].is_null());
  EXPECT_EQ(conv["lastActivityAt"], reply["createdAt"]);
  EXPECT_LE(conv["createdAt"].get<std::string>(), reply["createdAt"].get<std::string>());
}

TEST_F(ChatApi, StreamedReplyIsPlainTextWithHeaders) {
  auto c = start();
  auto r = chat(s(), c, {{"message", "Hello"}, {"stream", true}, {"sessionId", "st-1"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "text/plain; charset=utf-8");
  EXPECT_EQ(r.header("transfer-encoding"), "chunked");
  EXPECT_EQ(r.body, kDefaultFallback);
  EXPECT_EQ(r.header("x-conversation-id").rfind("cnv_", 0), 0u);
  EXPECT_EQ(r.header("x-session-id").rfind("svcapi_", 0), 0u);
  EXPECT_FALSE(r.has_header("x-live-chat"));
  EXPECT_TRUE(r.has_header("x-ratelimit-remaining"));
  // The same session continues in JSON.
  auto j = chat(s(), c, {{"message", "again"}, {"sessionId", "st-1"}}).json();
  EXPECT_EQ(j["conversationId"], r.header("x-conversation-id"));
  EXPECT_EQ(show_conversation(s(), j["conversationId"])["messages"].size(), 4u);
}

TEST_F(ChatApi, StreamedErrorsAreJson) {
  auto c = start();
  auto r = chat(s(), c, {{"message", ""}, {"stream", true}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.error_code(), "invalid_request");
  r = chat(s(), c, {{"message", "hi"}, {"stream", true}, {"conversationId", "cnv_missing"}});
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
}

TEST_F(ChatApi, UnknownSettingIsRefusedByTheCli) {
  auto c = start();
  auto r = s().admin({"agent", "update", c.agent, "--settings", R"({"showSauces": true})"}, true);
  EXPECT_NE(r["stderr"].get<std::string>().find("Unknown setting 'showSauces'"), std::string::npos);
  r = s().admin({"agent", "update", c.agent, "--settings", R"({"monthlyMessageCap": "ten"})"},
                true);
  EXPECT_NE(r["stderr"].get<std::string>().find("monthlyMessageCap"), std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
