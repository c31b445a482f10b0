// Hand-offs with both engines: by email to a loopback SMTP receiver (the mail read back, the
// conversation's handoffRequestedAt and the handoff.requested event), a mail that cannot be sent,
// and live chat offered then requested.
#include "chat_llm_support.h"

namespace parley::e2e {
namespace {

class ChatHandoff : public LlmChatTest {};

TEST_F(ChatHandoff, TheModelHandsOffByEmailThroughItsTool) {
  auto c = chat_setup(s(), R"({"engine":"openai","handoffEmail":"team@example.com"})");
  size_t mails_before = smtp_->mails().size();
  llm_->script(
      {{200,
        "text/event-stream",
        {sse_body({tool_chunk(0, "call_1", "request_human", "{}"), finish_chunk("tool_calls")})}},
       {200,
        "text/event-stream",
        {sse_body({text_chunk("Our team will be in touch."), finish_chunk("stop")})}}});
  auto r = chat(s(), c, {{"message", "I need to speak with your manager"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "Our team will be in touch.");
  EXPECT_TRUE(r.json()["liveChat"].is_null());
  auto reqs = llm_->requests();
  ASSERT_EQ(reqs.size(), 2u);
  auto first = Json::parse(reqs[0].body);
  ASSERT_EQ(first["tools"].size(), 1u);
  EXPECT_EQ(first["tools"][0]["function"]["name"], "request_human");
  auto second = Json::parse(reqs[1].body);
  auto& msgs = second["messages"];
  EXPECT_EQ(msgs[msgs.size() - 2]["tool_calls"][0]["id"], "call_1");
  EXPECT_EQ(msgs.back()["role"], "tool");
  EXPECT_EQ(msgs.back()["tool_call_id"], "call_1");

  ASSERT_TRUE(smtp_->wait_for(mails_before + 1, 5000));
  auto mail = smtp_->mails().back();
  EXPECT_EQ(mail.to, (std::vector<std::string>{"team@example.com"}));
  EXPECT_NE(mail.data.find("Visitor: I need to speak with your manager"), std::string::npos);
  auto conv = show_conversation(s(), r.json()["conversationId"]);
  EXPECT_TRUE(conv["handoffRequestedAt"].is_string()) << conv.dump();
}

TEST_F(ChatHandoff, RetrievalAgentHandsOffByEmailAndRecordsTheEvent) {
  auto c = chat_setup(s(), R"({"handoffEmail":"help@example.com"})");
  size_t mails_before = smtp_->mails().size();
  auto r = chat(s(), c, {{"message", "Can I talk to a human, please?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["reply"],
            "I've passed this conversation on to our team. Someone will get back to you soon.");
  EXPECT_TRUE(j["liveChat"].is_null());
  ASSERT_TRUE(smtp_->wait_for(mails_before + 1, 5000));
  auto mail = smtp_->mails().back();
  EXPECT_EQ(mail.from, "parley@example.com");
  EXPECT_EQ(mail.to, (std::vector<std::string>{"help@example.com"}));
  std::string conv_id = j["conversationId"];
  EXPECT_NE(mail.data.find("Conversation: " + conv_id), std::string::npos);
  EXPECT_NE(mail.data.find("Visitor: Can I talk to a human, please?"), std::string::npos);
  auto conv = show_conversation(s(), conv_id);
  ASSERT_TRUE(conv["handoffRequestedAt"].is_string()) << conv.dump();
  auto events = s().get("/api/v1/agents/" + c.agent + "/events/handoff.requested", c.key);
  ASSERT_EQ(events.status, 200) << events.body;
  ASSERT_EQ(events.json()["data"].size(), 1u) << events.body;
  EXPECT_EQ(events.json()["data"][0]["id"].get<std::string>().rfind(conv_id + ":", 0), 0u);
  // An ordinary question is answered by the knowledge as before.
  auto other = chat(s(), c, {{"message", "What are your prices?"}, {"conversationId", conv_id}});
  EXPECT_EQ(other.json()["reply"], kDefaultFallback);
}

TEST_F(ChatHandoff, AHandOffMailThatCannotBeSentIs500AndNothingIsStored) {
  auto c = chat_setup(s(), R"({"handoffEmail":"help@example.com"})");
  smtp_->refuse_recipients(true);
  auto r = chat(s(), c, {{"message", "I want a real person"}});
  smtp_->refuse_recipients(false);
  EXPECT_EQ(r.status, 500) << r.body;
  EXPECT_EQ(r.error_code(), "internal_error");
  expect_nothing_stored(c);
}

TEST_F(ChatHandoff, LiveChatIsOfferedThenRequested) {
  auto c = chat_setup(s(), R"({"liveChat":true,"handoffEmail":"help@example.com"})");
  size_t mails_before = smtp_->mails().size();
  auto offered = chat(s(), c, {{"message", "Can I speak to someone from your team?"}});
  ASSERT_EQ(offered.status, 200) << offered.body;
  EXPECT_EQ(offered.json()["liveChat"], "offered");
  std::string conv_id = offered.json()["conversationId"];
  auto conv = show_conversation(s(), conv_id);
  EXPECT_TRUE(conv["liveChat"].is_null()) << conv.dump();

  auto requested = chat(s(), c, {{"message", "Yes please"}, {"conversationId", conv_id}});
  ASSERT_EQ(requested.status, 200) << requested.body;
  EXPECT_EQ(requested.json()["liveChat"], "requested");
  conv = show_conversation(s(), conv_id);
  ASSERT_TRUE(conv["liveChat"].is_object()) << conv.dump();
  EXPECT_EQ(conv["liveChat"]["status"], "requested");
  EXPECT_TRUE(conv["handoffRequestedAt"].is_null());
  EXPECT_EQ(smtp_->mails().size(), mails_before);  // live chat instead of mail
  auto events = s().get("/api/v1/agents/" + c.agent + "/events/live_chat.requested", c.key);
  ASSERT_EQ(events.status, 200) << events.body;
  ASSERT_EQ(events.json()["data"].size(), 1u) << events.body;
  EXPECT_EQ(events.json()["data"][0]["id"].get<std::string>().rfind(conv_id + ":", 0), 0u);
}

TEST_F(ChatHandoff, AStreamedReplyAnnouncesLiveChatInItsHeader) {
  auto c = chat_setup(s(), R"({"liveChat":true})");
  auto offered = chat(s(), c, {{"message", "I want a real person"}, {"stream", true}});
  ASSERT_EQ(offered.status, 200) << offered.body;
  EXPECT_EQ(offered.header("x-live-chat"), "offered");
  EXPECT_EQ(offered.body, "I can bring a member of our team into this chat. Would you like that?");
  std::string conv_id = offered.header("x-conversation-id");
  // A message that does not accept lets the offer lapse.
  auto other =
      chat(s(), c,
           {{"message", "ok what are your hours"}, {"conversationId", conv_id}, {"stream", true}});
  EXPECT_FALSE(other.has_header("x-live-chat"));
  auto again = chat(s(), c, {{"message", "Sure"}, {"conversationId", conv_id}, {"stream", true}});
  EXPECT_FALSE(again.has_header("x-live-chat"));
  chat(s(), c, {{"message", "Can I talk to a human?"}, {"conversationId", conv_id}});
  auto requested =
      chat(s(), c, {{"message", "yes"}, {"conversationId", conv_id}, {"stream", true}});
  EXPECT_EQ(requested.header("x-live-chat"), "requested");
  EXPECT_EQ(show_conversation(s(), conv_id)["liveChat"]["status"], "requested");
}

}  // namespace
}  // namespace parley::e2e
