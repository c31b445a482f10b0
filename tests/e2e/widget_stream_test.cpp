// The widget's conversation stream stays cheap: after its first event it sends only what changed
// (the messages added since its previous event), and a team member's takeover and reply still
// reach it. A conversation stores at most --max-messages-per-conversation messages: a turn or a
// team reply past it is refused with 409 conflict, and a new conversation is open to the visitor.
#include <regex>
#include <set>

#include "chat_support.h"
#include "harness.h"
#include "raw_connection.h"

namespace parley::e2e {
namespace {

constexpr int kCap = 8;
const char* kOrigin = "Origin: https://shop.example.com";

class WidgetStream : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new Server(unlimited(), {"--max-messages-per-conversation", std::to_string(kCap)});
  }
  static void TearDownTestSuite() { delete server_; }
  static const Server& s() { return *server_; }

  void SetUp() override {
    c_ = chat_setup(s(), R"({"liveChat": true, "allowedDomains": ["example.com"]})");
    token_ = s().admin({"member", "create", "--account", c_.account, "--email",
                        "sam." + c_.account + "@example.com", "--role", "editor", "--name",
                        "Sam Editor"})["token"];
  }
  HttpResponse widget(const std::string& message, const std::string& visitor,
                      const std::string& conversation = "") {
    Json body = {{"message", message}, {"visitorId", visitor}};
    if (!conversation.empty()) body["conversationId"] = conversation;
    return s().request(
        {"POST", "/widget/v1/agents/" + c_.agent + "/messages", body.dump(), {kOrigin}});
  }
  HttpResponse console(const std::string& path, const Json& body = nullptr) {
    return send(s(), "POST", path, token_, body.is_null() ? "" : body.dump());
  }

  static Server* server_;
  ChatSetup c_;
  std::string token_;
};
Server* WidgetStream::server_ = nullptr;

// The `data:` of each `event: conversation` in what a stream sent, in order.
std::vector<Json> conversation_events(const std::string& raw) {
  std::vector<Json> out;
  std::regex one("event: conversation\ndata: ([^\n]*)\n\n");
  for (auto it = std::sregex_iterator(raw.begin(), raw.end(), one); it != std::sregex_iterator();
       ++it)
    out.push_back(Json::parse((*it)[1].str())["data"]);
  return out;
}

TEST_F(WidgetStream, AfterItsFirstEventItSendsOnlyNewMessagesAndATakeoverReachesIt) {
  auto first = widget("Hello there", "v-1");
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];
  ASSERT_EQ(widget("Can I talk to a human?", "v-1", conv).status, 200);
  ASSERT_EQ(widget("Yes please", "v-1", conv).json()["liveChat"], "requested");

  Connection stream(s().port());
  ASSERT_TRUE(stream.send("GET /widget/v1/conversations/" + conv +
                          "/events?visitorId=v-1 HTTP/1.1\r\nHost: x\r\n" + kOrigin + "\r\n\r\n"));
  std::string seen = stream.read_until("event: conversation");
  seen += stream.read_until("\n\n", 1, std::chrono::milliseconds(2000));
  auto opening = conversation_events(seen);
  ASSERT_EQ(opening.size(), 1u) << seen;
  ASSERT_EQ(opening[0]["messages"].size(), 6u) << opening[0].dump();  // the whole transcript, once
  std::set<std::string> earlier;
  for (const auto& m : opening[0]["messages"]) earlier.insert(m["id"]);

  ASSERT_EQ(console("/console/v1/conversations/" + conv + "/takeover").status, 200);
  ASSERT_EQ(console("/console/v1/conversations/" + conv + "/reply", {{"message", "Hi, Sam here."}})
                .status,
            201);
  seen += stream.read_until("Sam here", 1, std::chrono::milliseconds(5000));
  seen += stream.read_until("\n\n", 1, std::chrono::milliseconds(2000));
  auto states = conversation_events(seen);
  ASSERT_GE(states.size(), 2u) << seen;
  EXPECT_EQ(states.back()["liveChat"]["status"], "active");
  ASSERT_FALSE(states.back()["messages"].empty());
  EXPECT_EQ(states.back()["messages"].back()["content"], "Hi, Sam here.");
  EXPECT_EQ(states.back()["messages"].back()["authorName"], "Sam");
  // No event after the first repeats a message it already sent.
  size_t sent_later = 0;
  for (size_t i = 1; i < states.size(); ++i) {
    for (const auto& m : states[i]["messages"]) {
      EXPECT_EQ(earlier.count(m["id"]), 0u) << "sent again: " << m.dump();
      ++sent_later;
    }
  }
  EXPECT_EQ(sent_later, 1u) << seen;  // the reply alone

  // Ending the live chat changes the conversation but adds no message: an event with none.
  ASSERT_EQ(console("/console/v1/conversations/" + conv + "/end").status, 200);
  seen += stream.read_until("\"ended\"", 1, std::chrono::milliseconds(5000));
  states = conversation_events(seen);
  ASSERT_EQ(states.back()["liveChat"]["status"], "ended") << seen;
  EXPECT_TRUE(states.back()["messages"].empty()) << states.back().dump();
}

TEST_F(WidgetStream, AFullConversationTakesNoMoreMessagesAndANewOneDoes) {
  auto first = widget("Hello", "v-2");
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];
  ASSERT_EQ(widget("Can I talk to a human?", "v-2", conv).status, 200);
  ASSERT_EQ(widget("Yes please", "v-2", conv).status, 200);
  ASSERT_EQ(widget("Thanks", "v-2", conv).status, 200);  // 8 messages: the cap
  auto full = widget("One more", "v-2", conv);
  EXPECT_EQ(full.status, 409) << full.body;
  EXPECT_EQ(full.error_code(), "conflict");
  EXPECT_NE(full.error_message().find("start a new conversation"), std::string::npos) << full.body;
  EXPECT_EQ(show_conversation(s(), conv)["messages"].size(), 8u);
  // A team member cannot write past it either.
  ASSERT_EQ(console("/console/v1/conversations/" + conv + "/takeover").status, 200);
  auto reply = console("/console/v1/conversations/" + conv + "/reply", {{"message", "Hi"}});
  EXPECT_EQ(reply.status, 409) << reply.body;
  EXPECT_EQ(reply.error_code(), "conflict");
  // The API's chat as well, on a conversation of its own.
  std::string api_conv;
  for (int turn = 0; turn < 4; ++turn) {
    Json body = {{"message", "Hello"}};
    if (!api_conv.empty()) body["conversationId"] = api_conv;
    auto r = chat(s(), c_, body);
    ASSERT_EQ(r.status, 200) << r.body;
    api_conv = r.json()["conversationId"];
  }
  auto refused = chat(s(), c_, {{"message", "Hello"}, {"conversationId", api_conv}});
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(refused.error_code(), "conflict");
  // A new conversation is open.
  EXPECT_EQ(widget("Starting again", "v-2").status, 200);
}

}  // namespace
}  // namespace parley::e2e
