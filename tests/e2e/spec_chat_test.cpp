// Spec sections 2, 4, 7 and 8 for POST /api/v1/agents/{agentId}/chat, checked from outside: limits
// in Unicode code points, every field of the wrong type or null, the reply's types, streaming
// headers and JSON errors, and what a chat writes as read back through the public API
// (conversation, team replies, leads and their events).
#include <regex>

#include "chat_support.h"

namespace parley::e2e {
namespace {

const std::regex kTimestamp(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)");

class SpecChat : public ::testing::Test {
 protected:
  // Each test has its own server, started by its first line, start(), from a seed of the
  // account, agent (with `settings`) and key it begins with (made once per suite and settings).
  ChatSetup start(const std::string& settings = "") {
    const Seed& seeded = chat_seed("SpecChat", settings);
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
Server* SpecChat::server_ = nullptr;

void expect_invalid(const HttpResponse& r, const std::string& field, const std::string& what) {
  EXPECT_EQ(r.status, 400) << what << " -> " << r.body;
  EXPECT_EQ(r.error_code(), "invalid_request") << what;
  EXPECT_NE(r.error_message().find("'" + field + "'"), std::string::npos)
      << what << ": " << r.error_message();
}

TEST_F(SpecChat, LimitsCountCodePoints) {
  auto c = start();
  EXPECT_EQ(chat(s(), c, {{"message", emoji(10'000)}}).status, 200);
  expect_invalid(chat(s(), c, {{"message", emoji(10'001)}}), "message", "10001 emoji");
  EXPECT_EQ(chat(s(), c, {{"message", "hi"}, {"sessionId", emoji(100)}}).status, 200);
  expect_invalid(chat(s(), c, {{"message", "hi"}, {"sessionId", emoji(101)}}), "sessionId",
                 "101 emoji");
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 2);
}

TEST_F(SpecChat, EveryFieldOfTheWrongTypeIsNamed) {
  auto c = start();
  const std::vector<std::pair<std::string, std::vector<Json>>> wrong = {
      {"message", {nullptr, Json::array(), Json::object(), true, 1.5, Json::array({"hi"})}},
      {"conversationId", {Json::array(), Json::object(), true, 12}},
      {"sessionId", {Json::array(), Json::object(), false, 12}},
      {"stream", {1, "true", Json::array(), Json::object()}},
      {"timeZone", {Json::array(), false, 0, "", "GMT+2"}},
  };
  for (const auto& [field, values] : wrong) {
    for (const auto& v : values) {
      Json body = {{"message", "Hello"}};
      body[field] = v;
      expect_invalid(chat(s(), c, body), field, body.dump());
    }
  }
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 0);
}

TEST_F(SpecChat, NullOptionalFieldsCountAsAbsent) {
  auto c = start();
  auto r = chat(s(), c,
                {{"message", "Hello"},
                 {"conversationId", nullptr},
                 {"sessionId", nullptr},
                 {"stream", nullptr},
                 {"timeZone", nullptr}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.json()["reply"], kDefaultFallback);
}

TEST_F(SpecChat, ReplyFieldsHaveTheirTypes) {
  auto c = start();
  auto r = chat(s(), c, {{"message", "Hello"}, {"sessionId", "person-1"}, {"timeZone", "UTC"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_TRUE(j["reply"].is_string());
  EXPECT_TRUE(j["conversationId"].is_string());
  EXPECT_EQ(j["sessionId"].get<std::string>().rfind("svcapi", 0), 0u);
  for (const char* array : {"sources", "followUps", "buttons", "products"})
    EXPECT_TRUE(j[array].is_array()) << array;
  for (const char* nullable : {"form", "leadForm", "booking", "liveChat"})
    EXPECT_TRUE(j[nullable].is_null()) << nullable;
  EXPECT_FALSE(r.header("x-ratelimit-limit").empty());
  EXPECT_FALSE(r.header("x-ratelimit-remaining").empty());
  EXPECT_FALSE(r.header("x-ratelimit-reset").empty());
}

TEST_F(SpecChat, StreamedReplyCarriesRateHeadersAndContinuesBySession) {
  auto c = start();
  auto first = chat(s(), c, {{"message", "Hello"}, {"stream", true}});
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.header("content-type").rfind("text/plain", 0), 0u);
  EXPECT_EQ(first.body, kDefaultFallback);
  EXPECT_FALSE(first.header("x-ratelimit-limit").empty());
  EXPECT_FALSE(first.header("x-ratelimit-remaining").empty());
  EXPECT_FALSE(first.header("x-ratelimit-reset").empty());
  std::string session = first.header("x-session-id");
  ASSERT_EQ(session.rfind("svcapi", 0), 0u);
  auto second = chat(s(), c, {{"message", "Again"}, {"stream", true}, {"sessionId", session}});
  ASSERT_EQ(second.status, 200);
  EXPECT_EQ(second.header("x-conversation-id"), first.header("x-conversation-id"));
  EXPECT_EQ(second.header("x-session-id"), session);
}

TEST_F(SpecChat, StreamedRefusalsAreJson) {
  auto c = start(R"({"monthlyMessageCap": 1})");
  auto body = [](Json extra) {
    Json j = {{"message", "Hello"}, {"stream", true}};
    j.update(extra);
    return j;
  };
  auto r = s().post("/api/v1/agents/agt_doesnotexist000000000000/chat", c.key,
                    body(Json::object()).dump());
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  EXPECT_EQ(r.header("content-type"), "application/json");
  std::string priv =
      s().admin({"agent", "create", "--account", c.account, "--name", "Inner", "--private"})["id"];
  r = s().post("/api/v1/agents/" + priv + "/chat", c.key, body(Json::object()).dump());
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "agent_private");
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(chat(s(), c, body(Json::object())).status, 200);
  r = chat(s(), c, body(Json::object()));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "agent_cap_reached");
  EXPECT_EQ(r.header("content-type"), "application/json");
  expect_invalid(chat(s(), c, body({{"sessionId", emoji(101)}})), "sessionId", "stream");
  expect_invalid(chat(s(), c, body({{"timeZone", "Mars/Olympus"}})), "timeZone", "stream");
}

// What a chat writes, read back through the public API.
TEST_F(SpecChat, ConversationReadsBackThroughTheApi) {
  auto c = start();
  auto older = chat(s(), c, {{"message", "First conversation"}}).json();
  auto newer = chat(s(), c, {{"message", "Second conversation"}}).json();
  auto list = s().get("/api/v1/agents/" + c.agent + "/conversations", c.key);
  ASSERT_EQ(list.status, 200) << list.body;
  auto data = list.json()["data"];
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0]["id"], newer["conversationId"]);  // newest first
  EXPECT_EQ(data[1]["id"], older["conversationId"]);
  EXPECT_EQ(data[0]["sessionId"], newer["sessionId"]);
  EXPECT_EQ(data[0]["channel"], "api");
  EXPECT_TRUE(data[0]["country"].is_null());
  EXPECT_TRUE(data[0]["page"].is_null());
  EXPECT_EQ(data[0]["messageCount"], 2);
  EXPECT_TRUE(data[0]["liveChat"].is_null());
  EXPECT_FALSE(data[0].contains("messages"));

  auto one = s().get("/api/v1/conversations/" + newer["conversationId"].get<std::string>(), c.key);
  ASSERT_EQ(one.status, 200) << one.body;
  auto conv = one.json()["data"];
  EXPECT_EQ(conv["agentId"], c.agent);
  EXPECT_EQ(conv["channel"], "api");
  EXPECT_TRUE(std::regex_match(conv["createdAt"].get<std::string>(), kTimestamp));
  ASSERT_EQ(conv["messages"].size(), 2u);
  EXPECT_EQ(conv["messages"][0]["role"], "user");
  EXPECT_EQ(conv["messages"][0]["content"], "Second conversation");
  EXPECT_EQ(conv["messages"][1]["role"], "assistant");
  EXPECT_EQ(conv["messages"][1]["content"], newer["reply"]);
  for (const auto& m : conv["messages"]) {
    EXPECT_TRUE(std::regex_match(m["createdAt"].get<std::string>(), kTimestamp));
    EXPECT_TRUE(m["authorName"].is_null());
    EXPECT_TRUE(m["sources"].is_array());
  }
}

TEST_F(SpecChat, TeamRepliesAppearWithAuthorNameWhilePaused) {
  auto c = start();
  std::string conv = chat(s(), c, {{"message", "Hello"}}).json()["conversationId"];
  s().admin({"conversation", "takeover", conv, "--member", "Maria Lopez"});
  auto paused = chat(s(), c, {{"message", "Anyone?"}, {"conversationId", conv}});
  ASSERT_EQ(paused.status, 200);
  auto j = paused.json();
  EXPECT_EQ(j["reply"], "");
  EXPECT_EQ(j["liveChat"], "paused");
  EXPECT_EQ(j["followUps"], Json::array());
  s().admin({"conversation", "reply", conv, "--member", "Maria Lopez", "--text", "Maria here."});
  auto read = s().get("/api/v1/conversations/" + conv, c.key).json()["data"];
  ASSERT_EQ(read["messages"].size(), 4u);
  EXPECT_EQ(read["messages"][2]["content"], "Anyone?");
  EXPECT_EQ(read["messages"][3]["role"], "assistant");
  EXPECT_EQ(read["messages"][3]["authorName"], "Maria");
  EXPECT_EQ(read["liveChat"]["status"], "active");
  EXPECT_TRUE(std::regex_match(read["liveChat"]["startedAt"].get<std::string>(), kTimestamp));
}

TEST_F(SpecChat, ContactDetailsInAMessageAreALeadWithItsEvent) {
  auto c = start(R"({"saveContactDetails": true})");
  std::string conv =
      chat(s(), c, {{"message", "Write to Ann@Example.com please"}}).json()["conversationId"];
  auto leads = s().get("/api/v1/agents/" + c.agent + "/leads", c.key);
  ASSERT_EQ(leads.status, 200) << leads.body;
  ASSERT_EQ(leads.json()["data"].size(), 1u);
  auto lead = leads.json()["data"][0];
  EXPECT_EQ(lead["email"], "ann@example.com");
  EXPECT_EQ(lead["source"], "chat");
  EXPECT_EQ(lead["conversationId"], conv);
  EXPECT_EQ(lead["submissionCount"], 1);
  auto events = s().get("/api/v1/agents/" + c.agent + "/events/lead.created", c.key);
  ASSERT_EQ(events.status, 200) << events.body;
  ASSERT_EQ(events.json()["data"].size(), 1u);
  auto e = events.json()["data"][0];
  EXPECT_EQ(e["id"], lead["id"]);
  EXPECT_EQ(e["event"], "lead.created");
  EXPECT_EQ(e["data"]["source"], "chat");
  EXPECT_EQ(e["data"]["conversationId"], conv);
}

TEST_F(SpecChat, PathForms) {
  auto c = start();
  std::string encoded = c.agent;
  encoded.replace(encoded.find('_'), 1, "%5F");
  auto r = s().post("/api/v1/agents/" + encoded + "/chat", c.key, R"({"message":"Hello"})");
  EXPECT_EQ(r.status, 200) << r.body;
  r = s().post("/api/v1/agents/" + c.agent + "/chat/", c.key, R"({"message":"Hello"})");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  r = s().get("/api/v1/agents/" + c.agent + "/chat", c.key);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.error_code(), "method_not_allowed");
}

TEST_F(SpecChat, ControlCharactersRoundTrip) {
  auto c = start();
  // Sized by the literal itself: a NUL inside ends it for a plain constructor.
  static constexpr char kMessage[] = "a\0b\x01 \"quoted\" \\ line\nnext";
  std::string message(kMessage, sizeof kMessage - 1);
  auto r = chat(s(), c, {{"message", message}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto conv = s().get("/api/v1/conversations/" + r.json()["conversationId"].get<std::string>(),
                      c.key);
  ASSERT_EQ(conv.status, 200) << conv.body;
  EXPECT_EQ(conv.json()["data"]["messages"][0]["content"], message);
}

TEST_F(SpecChat, AKeyWithOnlyTheChatScopeChats) {
  auto c = start();
  c.key = s().create_key(c.account, "chat");
  auto r = chat(s(), c, {{"message", "Hello"}});
  EXPECT_EQ(r.status, 200) << r.body;
  r = s().get("/api/v1/agents/" + c.agent, c.key);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "insufficient_scope");
}

TEST_F(SpecChat, SessionIdsAlwaysBeginWithSvcapi) {
  auto c = start();
  for (const char* given : {"person-1", "SVCAPI-upper", "svcapi_chosen_by_caller"}) {
    auto r = chat(s(), c, {{"message", "Hello"}, {"sessionId", given}});
    ASSERT_EQ(r.status, 200) << r.body;
    std::string session = r.json()["sessionId"];
    EXPECT_EQ(session.rfind("svcapi", 0), 0u) << given;
    // The returned id continues the same conversation.
    auto again = chat(s(), c, {{"message", "Again"}, {"sessionId", session}}).json();
    EXPECT_EQ(again["conversationId"], r.json()["conversationId"]) << given;
  }
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 3);
}

}  // namespace
}  // namespace parley::e2e
