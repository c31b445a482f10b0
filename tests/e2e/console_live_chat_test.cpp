// Live chat in the console: a team member takes over a conversation, replies (authorName = first
// name) and ends the live chat; the public API sees `paused` with an empty reply meanwhile, the
// team's reply in the transcript, and the conversation's liveChat object move through its states.
#include "chat_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

class ConsoleLiveChat : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static const Server& s() { return *server_; }

  // An account with an agent and key, and an editor named "Maria Lopez".
  void SetUp() override {
    c_ = chat_setup(s());
    editor_ = s().admin({"member", "create", "--account", c_.account, "--email",
                         "maria." + c_.account + "@example.com", "--role", "editor", "--name",
                         "Maria Lopez"})["token"];
  }
  HttpResponse console(const std::string& conv, const std::string& action, const Json& body = Json::object(),
                       const std::string& token = "") {
    return s().post("/console/v1/conversations/" + conv + "/" + action, token.empty() ? editor_ : token, body.dump());
  }

  static Server* server_;
  ChatSetup c_;
  std::string editor_;
};
Server* ConsoleLiveChat::server_ = nullptr;

TEST_F(ConsoleLiveChat, TakeoverIsSeenFromThePublicApi) {
  auto first = chat(s(), c_, {{"message", "Hello"}, {"sessionId", "p-1"}});
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];

  auto taken = console(conv, "takeover");
  ASSERT_EQ(taken.status, 200) << taken.body;
  auto live = taken.json()["data"]["liveChat"];
  EXPECT_EQ(live["status"], "active");
  EXPECT_TRUE(live["startedAt"].is_string());
  EXPECT_TRUE(live["endedAt"].is_null());

  auto paused = chat(s(), c_, {{"message", "Are you a person?"}, {"sessionId", "p-1"}});
  ASSERT_EQ(paused.status, 200) << paused.body;
  EXPECT_EQ(paused.json()["reply"], "");
  EXPECT_EQ(paused.json()["liveChat"], "paused");

  auto reply = console(conv, "reply", {{"message", "Yes, Maria here."}});
  ASSERT_EQ(reply.status, 201) << reply.body;
  EXPECT_EQ(reply.json()["data"]["authorName"], "Maria");
  EXPECT_EQ(reply.json()["data"]["role"], "assistant");

  auto got = s().get("/api/v1/conversations/" + conv, c_.key).json()["data"];
  EXPECT_EQ(got["liveChat"]["status"], "active");
  auto messages = got["messages"];
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[2]["content"], "Are you a person?");
  EXPECT_EQ(messages[3]["content"], "Yes, Maria here.");
  EXPECT_EQ(messages[3]["authorName"], "Maria");
  EXPECT_TRUE(messages[1]["authorName"].is_null());
  auto item = s().get("/api/v1/agents/" + c_.agent + "/conversations", c_.key).json()["data"][0];
  EXPECT_EQ(item["liveChat"], "active");

  auto ended = console(conv, "end");
  ASSERT_EQ(ended.status, 200) << ended.body;
  EXPECT_EQ(ended.json()["data"]["liveChat"]["status"], "ended");
  EXPECT_TRUE(ended.json()["data"]["liveChat"]["endedAt"].is_string());
  auto back = chat(s(), c_, {{"message", "Thanks"}, {"sessionId", "p-1"}});
  EXPECT_EQ(back.json()["reply"], kDefaultFallback);
  EXPECT_TRUE(back.json()["liveChat"].is_null());
  EXPECT_EQ(s().get("/api/v1/conversations/" + conv, c_.key).json()["data"]["liveChat"]["status"], "ended");
}

TEST_F(ConsoleLiveChat, WidgetVisitorIsPausedAndSeesTheTeamReply) {
  auto first = s().request({"POST", "/widget/v1/agents/" + c_.agent + "/messages",
                            Json{{"message", "Hi"}, {"visitorId", "v-1"}}.dump(), {}});
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];
  ASSERT_EQ(console(conv, "takeover").status, 200);
  auto paused = s().request({"POST", "/widget/v1/agents/" + c_.agent + "/messages",
                             Json{{"message", "Hello?"}, {"visitorId", "v-1"}, {"conversationId", conv}}.dump(), {}});
  EXPECT_EQ(paused.json()["reply"], "");
  EXPECT_EQ(paused.json()["liveChat"], "paused");
  ASSERT_EQ(console(conv, "reply", {{"message", "Hello from the team"}}).status, 201);
  auto transcript = s().request({"GET", "/widget/v1/conversations/" + conv + "?visitorId=v-1", "", {}});
  ASSERT_EQ(transcript.status, 200) << transcript.body;
  auto messages = transcript.json()["data"]["messages"];
  EXPECT_EQ(messages.back()["authorName"], "Maria");
  EXPECT_EQ(s().request({"GET", "/widget/v1/conversations/" + conv + "?visitorId=v-2", "", {}}).status, 404);
}

TEST_F(ConsoleLiveChat, RolesStatesAndAccountsAreChecked) {
  std::string conv = chat(s(), c_, {{"message", "Hello"}}).json()["conversationId"];
  auto viewer = create_member(s(), c_.account, "viewer")["token"].get<std::string>();
  auto refused = console(conv, "takeover", Json::object(), viewer);
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "forbidden");
  EXPECT_EQ(s().get("/console/v1/conversations/" + conv, viewer).status, 200);

  auto early = console(conv, "reply", {{"message", "Too soon"}});
  EXPECT_EQ(early.status, 400);
  EXPECT_EQ(early.error_code(), "invalid_request");
  EXPECT_EQ(console(conv, "end").status, 400);
  ASSERT_EQ(console(conv, "takeover").status, 200);
  auto empty = console(conv, "reply", {{"message", ""}});
  EXPECT_EQ(empty.status, 400);
  EXPECT_NE(empty.error_message().find("message"), std::string::npos);
  auto missing = console(conv, "reply", Json::object());
  EXPECT_EQ(missing.status, 400);

  auto other = chat_setup(s());
  auto outsider = create_member(s(), other.account, "owner")["token"].get<std::string>();
  EXPECT_EQ(console(conv, "takeover", Json::object(), outsider).status, 404);
  EXPECT_EQ(console(conv, "reply", {{"message", "Hi"}}, outsider).status, 404);
  EXPECT_EQ(s().get("/console/v1/conversations/" + conv, outsider).status, 404);
  EXPECT_EQ(console("cnv_missing", "takeover").status, 404);
  EXPECT_EQ(s().post("/console/v1/conversations/" + conv + "/takeover", "", "{}").status, 401);
}

TEST_F(ConsoleLiveChat, MemberWithoutANameRepliesUnderTheEmailName) {
  std::string conv = chat(s(), c_, {{"message", "Hello"}}).json()["conversationId"];
  auto bare = s().admin({"member", "create", "--account", c_.account, "--email", "lee." + c_.account + "@example.com",
                         "--role", "admin"})["token"].get<std::string>();
  ASSERT_EQ(console(conv, "takeover", Json::object(), bare).status, 200);
  auto reply = console(conv, "reply", {{"message", "Hi"}}, bare);
  ASSERT_EQ(reply.status, 201) << reply.body;
  std::string expected = "lee." + c_.account;  // emails are stored in lower case
  for (auto& ch : expected) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  EXPECT_EQ(reply.json()["data"]["authorName"], expected);
}

}  // namespace
}  // namespace parley::e2e
