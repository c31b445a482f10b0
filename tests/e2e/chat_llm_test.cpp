// Chat through the `openai` engine against a real loopback provider speaking the protocol, and
// hand-offs (by email to a loopback SMTP receiver, and live chat) with both engines: the prompt
// sent, text relayed as the chat stream, sources cited back, the provider's errors and a stall
// past the deadline, and what is stored.
#include "chat_support.h"
#include "fake_llm_server.h"
#include "fake_smtp_server.h"

namespace parley::e2e {
namespace {

constexpr const char* kOpenAi = R"({"engine":"openai","instructions":"You are Polly, a pirate."})";

class ChatLlm : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    llm_ = new FakeLlmServer();
    smtp_ = new FakeSmtpServer();
    Env env = unlimited();
    env["PARLEY_LLM_API_KEY"] = "sk-server-secret";
    env["PARLEY_SMTP_URL"] = smtp_->url();
    env["PARLEY_SMTP_FROM"] = "parley@example.com";
    server_ = new Server(env, {"--llm-base-url", llm_->base_url(), "--llm-model", "default-model",
                               "--chat-timeout-ms", "1500"});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete smtp_;
    delete llm_;
  }
  void SetUp() override { llm_->clear_requests(); }

  const Server& s() { return *server_; }
  static void say(const std::vector<std::string>& pieces) {
    std::vector<std::string> chunks;
    for (const auto& p : pieces) chunks.push_back(text_chunk(p));
    chunks.push_back(finish_chunk("stop"));
    llm_->script({{200, "text/event-stream", {sse_body(chunks)}}});
  }
  static Json last_prompt() {
    auto reqs = llm_->requests();
    EXPECT_FALSE(reqs.empty());
    return reqs.empty() ? Json() : Json::parse(reqs.back().body);
  }
  void expect_nothing_stored(const ChatSetup& c) {
    auto counts = agent_counts(s(), c);
    EXPECT_EQ(counts["conversations"], 0) << counts.dump();
    EXPECT_EQ(counts["messages"], 0) << counts.dump();
  }

  static Server* server_;
  static FakeLlmServer* llm_;
  static FakeSmtpServer* smtp_;
};
Server* ChatLlm::server_ = nullptr;
FakeLlmServer* ChatLlm::llm_ = nullptr;
FakeSmtpServer* ChatLlm::smtp_ = nullptr;

TEST_F(ChatLlm, RepliesWithTheProviderTextAndSendsThePrompt) {
  auto c = chat_setup(s(), kOpenAi);
  say({"Ahoy", ", matey!"});
  auto r = chat(s(), c, {{"message", "Who are you?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["reply"], "Ahoy, matey!");
  EXPECT_EQ(j["sources"], Json::array());
  EXPECT_TRUE(j["liveChat"].is_null());

  auto reqs = llm_->requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer sk-server-secret");
  auto body = Json::parse(reqs[0].body);
  EXPECT_EQ(body["model"], "default-model");
  EXPECT_EQ(body["stream"], true);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"].get<std::string>().rfind("You are Polly, a pirate.", 0), 0u);
  EXPECT_EQ(body["messages"][1], (Json{{"role", "user"}, {"content", "Who are you?"}}));
  EXPECT_FALSE(body.contains("tools"));  // no hand-off configured

  auto conv = show_conversation(s(), j["conversationId"]);
  ASSERT_EQ(conv["messages"].size(), 2u);
  EXPECT_EQ(conv["messages"][1]["content"], "Ahoy, matey!");
  EXPECT_EQ(s().log().find("sk-server-secret"), std::string::npos);
}

TEST_F(ChatLlm, HistoryOfTheConversationIsSent) {
  auto c = chat_setup(s(), kOpenAi);
  say({"First answer."});
  auto first = chat(s(), c, {{"message", "First question"}});
  ASSERT_EQ(first.status, 200) << first.body;
  say({"Second answer."});
  auto second = chat(s(), c, {{"message", "Second question"}, {"conversationId", first.json()["conversationId"]}});
  ASSERT_EQ(second.status, 200) << second.body;
  auto body = last_prompt();
  ASSERT_EQ(body["messages"].size(), 4u);
  EXPECT_EQ(body["messages"][1], (Json{{"role", "user"}, {"content", "First question"}}));
  EXPECT_EQ(body["messages"][2], (Json{{"role", "assistant"}, {"content", "First answer."}}));
  EXPECT_EQ(body["messages"][3], (Json{{"role", "user"}, {"content", "Second question"}}));
}

TEST_F(ChatLlm, TheAgentsLlmSettingsWinOverTheServerDefaults) {
  auto c = chat_setup(s(), R"({"engine":"openai","llm":{"baseUrl":")" + llm_->base_url() +
                               R"(/v1","model":"agent-model","apiKey":"sk-agent-own"}})");
  say({"ok"});
  ASSERT_EQ(chat(s(), c, {{"message", "hi"}}).status, 200);
  auto reqs = llm_->requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer sk-agent-own");
  EXPECT_EQ(Json::parse(reqs[0].body)["model"], "agent-model");
}

TEST_F(ChatLlm, TheProviderStreamIsRelayedAsTheChatStream) {
  auto c = chat_setup(s(), kOpenAi);
  std::string body = sse_body({text_chunk("Streamed "), text_chunk("pieces "), text_chunk("arrive."),
                               finish_chunk("stop")});
  llm_->script({{200, "text/event-stream", split_every(body, 5), 1}});
  auto r = chat(s(), c, {{"message", "Stream please"}, {"stream", true}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type").rfind("text/plain", 0), 0u);
  EXPECT_EQ(r.body, "Streamed pieces arrive.");
  std::string conv_id = r.header("x-conversation-id");
  ASSERT_EQ(conv_id.rfind("cnv_", 0), 0u);
  EXPECT_EQ(r.header("x-session-id").rfind("svcapi", 0), 0u);
  auto conv = show_conversation(s(), conv_id);
  ASSERT_EQ(conv["messages"].size(), 2u);
  EXPECT_EQ(conv["messages"][1]["content"], "Streamed pieces arrive.");
}

TEST_F(ChatLlm, KnowledgeIsInThePromptAndCitedSourcesComeBack) {
  auto c = chat_setup(s(), R"({"engine":"openai","showSources":true})");
  auto added = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                        Json{{"type", "qa"}, {"question", "What are your opening hours?"},
                             {"answer", "We are open 9 to 5."}}.dump());
  ASSERT_EQ(added.status, 201) << added.body;
  for (int i = 0; i < 200; ++i) {
    auto l = s().get("/api/v1/agents/" + c.agent + "/sources", c.key);
    if (l.json()["training"]["done"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  say({"We open at 9 [1]."});
  auto r = chat(s(), c, {{"message", "What are your opening hours?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  std::string system = last_prompt()["messages"][0]["content"];
  EXPECT_NE(system.find("[1] Question: What are your opening hours?\nAnswer: We are open 9 to 5."),
            std::string::npos)
      << system;
  EXPECT_EQ(r.json()["sources"], (Json::array({{{"title", "What are your opening hours?"}, {"url", nullptr}}})));
}

TEST_F(ChatLlm, AProviderErrorIs500AndNothingIsStored) {
  auto c = chat_setup(s(), kOpenAi);
  llm_->script({{503, "application/json", {R"({"error":{"message":"overloaded, key sk-server-secret"}})"}}});
  auto r = chat(s(), c, {{"message", "hi"}});
  EXPECT_EQ(r.status, 500) << r.body;
  EXPECT_EQ(r.error_code(), "internal_error");
  EXPECT_EQ(r.body.find("sk-server-secret"), std::string::npos);
  auto streamed = chat(s(), c, {{"message", "hi"}, {"stream", true}});
  EXPECT_EQ(streamed.status, 500) << streamed.body;
  EXPECT_EQ(streamed.error_code(), "internal_error");
  llm_->script({{200, "text/event-stream", {"data: {broken\n\n"}}});
  auto malformed = chat(s(), c, {{"message", "hi"}});
  EXPECT_EQ(malformed.status, 500) << malformed.body;
  expect_nothing_stored(c);
}

TEST_F(ChatLlm, AProviderStallingPastTheDeadlineIs504AndNothingIsStored) {
  auto c = chat_setup(s(), kOpenAi);
  llm_->script({{200, "text/event-stream", {}, 0, 5000}});
  auto r = chat(s(), c, {{"message", "hi"}});
  EXPECT_EQ(r.status, 504) << r.body;
  EXPECT_EQ(r.error_code(), "timeout");
  auto streamed = chat(s(), c, {{"message", "hi"}, {"stream", true}});
  EXPECT_EQ(streamed.status, 504) << streamed.body;
  EXPECT_EQ(streamed.error_code(), "timeout");
  expect_nothing_stored(c);
}

TEST_F(ChatLlm, TheModelHandsOffByEmailThroughItsTool) {
  auto c = chat_setup(s(), R"({"engine":"openai","handoffEmail":"team@example.com"})");
  size_t mails_before = smtp_->mails().size();
  llm_->script({{200, "text/event-stream",
                 {sse_body({tool_chunk(0, "call_1", "request_human", "{}"), finish_chunk("tool_calls")})}},
                {200, "text/event-stream", {sse_body({text_chunk("Our team will be in touch."), finish_chunk("stop")})}}});
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

TEST_F(ChatLlm, RetrievalAgentHandsOffByEmailAndRecordsTheEvent) {
  auto c = chat_setup(s(), R"({"handoffEmail":"help@example.com"})");
  size_t mails_before = smtp_->mails().size();
  auto r = chat(s(), c, {{"message", "Can I talk to a human, please?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["reply"], "I've passed this conversation on to our team. Someone will get back to you soon.");
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

TEST_F(ChatLlm, AHandOffMailThatCannotBeSentIs500AndNothingIsStored) {
  auto c = chat_setup(s(), R"({"handoffEmail":"help@example.com"})");
  smtp_->refuse_recipients(true);
  auto r = chat(s(), c, {{"message", "I want a real person"}});
  smtp_->refuse_recipients(false);
  EXPECT_EQ(r.status, 500) << r.body;
  EXPECT_EQ(r.error_code(), "internal_error");
  expect_nothing_stored(c);
}

TEST_F(ChatLlm, LiveChatIsOfferedThenRequested) {
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

constexpr const char* kCatalogue =
    R"("buttons":[{"label":"See pricing","url":"https://example.com/pricing","keywords":["price","cost"]}],)"
    R"("products":[{"name":"Blue Jacket","url":"https://shop.example.com/blue","image":"https://shop.example.com/b.png",)"
    R"("price":79.5,"compareAtPrice":99,"currency":"EUR","available":true,"keywords":["jacket","coat"]},)"
    R"({"name":"Red Scarf","url":"https://shop.example.com/red"}])";

TEST_F(ChatLlm, RetrievalAgentOffersMatchingButtonsAndProducts) {
  auto c = chat_setup(s(), std::string("{") + kCatalogue + "}");
  auto r = chat(s(), c, {{"message", "How much does the blue jacket cost?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["buttons"], Json::parse(R"([{"label":"See pricing","url":"https://example.com/pricing"}])"));
  EXPECT_EQ(j["products"], Json::parse(R"([{"name":"Blue Jacket","url":"https://shop.example.com/blue",
      "image":"https://shop.example.com/b.png","price":79.5,"compareAtPrice":99.0,"currency":"EUR","available":true}])"));
  auto none = chat(s(), c, {{"message", "Where are you based?"}});
  EXPECT_EQ(none.json()["buttons"], Json::array());
  EXPECT_EQ(none.json()["products"], Json::array());
}

TEST_F(ChatLlm, OpenAiAgentOffersWhatTheModelPicksThroughTools) {
  auto c = chat_setup(s(), std::string(R"({"engine":"openai",)") + kCatalogue + "}");
  llm_->script({{200, "text/event-stream",
                 {sse_body({tool_chunk(0, "call_p", "show_products", R"({"names":["Red Scarf"]})"),
                            tool_chunk(1, "call_b", "show_buttons", R"({"names":["See pricing"]})"),
                            finish_chunk("tool_calls")})}},
                {200, "text/event-stream", {sse_body({text_chunk("Here you go."), finish_chunk("stop")})}}});
  auto r = chat(s(), c, {{"message", "Something warm for my neck?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["reply"], "Here you go.");
  EXPECT_EQ(j["products"], Json::parse(R"([{"name":"Red Scarf","url":"https://shop.example.com/red"}])"));
  EXPECT_EQ(j["buttons"], Json::parse(R"([{"label":"See pricing","url":"https://example.com/pricing"}])"));
  auto first = Json::parse(llm_->requests().at(0).body);
  ASSERT_EQ(first["tools"].size(), 2u);
  EXPECT_EQ(first["tools"][0]["function"]["name"], "show_buttons");
  EXPECT_EQ(first["tools"][0]["function"]["parameters"]["properties"]["names"]["items"]["enum"],
            Json::parse(R"(["See pricing"])"));
  EXPECT_EQ(first["tools"][1]["function"]["parameters"]["properties"]["names"]["items"]["enum"],
            Json::parse(R"(["Blue Jacket","Red Scarf"])"));
}

TEST_F(ChatLlm, ApiActionsAreToolsAndTheGuardRefusesAnInternalAddress) {
  auto c = chat_setup(s(), R"({"engine":"openai",
      "apiActions":[{"name":"order_status","description":"Looks up an order","method":"GET",
                     "url":"https://127.0.0.1:9/orders/{orderId}","parameters":[{"name":"orderId","required":true}]}],
      "clientActions":[{"name":"open_cart","url":"https://example.com/cart"}]})");
  llm_->script({{200, "text/event-stream",
                 {sse_body({tool_chunk(0, "call_o", "action_order_status", R"({"orderId":"42"})"),
                            finish_chunk("tool_calls")})}},
                {200, "text/event-stream", {sse_body({text_chunk("I could not look that up."), finish_chunk("stop")})}}});
  auto r = chat(s(), c, {{"message", "Where is order 42?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "I could not look that up.");
  auto reqs = llm_->requests();
  ASSERT_EQ(reqs.size(), 2u);
  auto tools = Json::parse(reqs[0].body)["tools"];
  ASSERT_EQ(tools.size(), 1u);  // client-side actions are never offered
  EXPECT_EQ(tools[0]["function"]["name"], "action_order_status");
  EXPECT_EQ(tools[0]["function"]["parameters"]["required"], Json::parse(R"(["orderId"])"));
  auto result = Json::parse(reqs[1].body)["messages"].back();
  EXPECT_EQ(result["role"], "tool");
  EXPECT_NE(result["content"].get<std::string>().find("refused"), std::string::npos) << result.dump();
}

constexpr const char* kBooking =
    R"("booking":{"provider":"calendar","eventTitle":"Intro call","eventLength":60,"timeZone":"UTC","daysAhead":3,)"
    R"("availability":{"mon":[["23:00","24:00"]],"tue":[["23:00","24:00"]],"wed":[["23:00","24:00"]],)"
    R"("thu":[["23:00","24:00"]],"fri":[["23:00","24:00"]],"sat":[["23:00","24:00"]],"sun":[["23:00","24:00"]]}})";

TEST_F(ChatLlm, BookingIsShownInTheCallersTimeZone) {
  auto c = chat_setup(s(), std::string("{") + kBooking + "}");
  auto utc = chat(s(), c, {{"message", "Can I book a call?"}});
  auto tokyo = chat(s(), c, {{"message", "Can I book a call?"}, {"timeZone", "Asia/Tokyo"}});
  ASSERT_EQ(utc.status, 200) << utc.body;
  ASSERT_EQ(tokyo.status, 200) << tokyo.body;
  auto a = utc.json()["booking"], b = tokyo.json()["booking"];
  EXPECT_EQ(a["provider"], "calendar");
  EXPECT_EQ(a["eventTitle"], "Intro call");
  EXPECT_EQ(a["eventLength"], 60);
  EXPECT_EQ(a["timeZone"], "UTC");
  EXPECT_EQ(b["timeZone"], "Asia/Tokyo");
  EXPECT_EQ(a.size(), 5u);
  ASSERT_GE(a["days"].size(), 3u) << a.dump();
  ASSERT_EQ(a["days"].size(), b["days"].size());
  for (size_t i = 0; i < a["days"].size(); ++i) {
    auto& day = a["days"][i];
    ASSERT_EQ(day.size(), 2u);
    ASSERT_EQ(day["slots"].size(), 1u);
    std::string slot = day["slots"][0];
    EXPECT_EQ(slot.substr(0, 10), day["date"]);  // 23:00 UTC is that UTC date
    EXPECT_EQ(slot.substr(10), "T23:00:00.000Z");
    EXPECT_EQ(b["days"][i]["slots"], day["slots"]);  // the same UTC times
    EXPECT_NE(b["days"][i]["date"], day["date"]);   // 08:00 the next day in Tokyo
  }
  EXPECT_TRUE(chat(s(), c, {{"message", "What do you sell?"}}).json()["booking"].is_null());
}

TEST_F(ChatLlm, OpenAiAgentShowsBookingThroughItsTool) {
  auto c = chat_setup(s(), std::string(R"({"engine":"openai",)") + kBooking + "}");
  llm_->script({{200, "text/event-stream", {sse_body({tool_chunk(0, "call_k", "show_booking", "{}"), finish_chunk("tool_calls")})}},
                {200, "text/event-stream", {sse_body({text_chunk("Pick a time."), finish_chunk("stop")})}}});
  auto r = chat(s(), c, {{"message", "Let's meet"}, {"timeZone", "Europe/Paris"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "Pick a time.");
  EXPECT_EQ(r.json()["booking"]["timeZone"], "Europe/Paris");
  EXPECT_GE(r.json()["booking"]["days"].size(), 3u);
}

constexpr const char* kForm =
    R"("forms":[{"id":"form_quote","name":"Request a quote","submitLabel":"Send","keywords":["quote"],)"
    R"("fields":[{"id":"f1","label":"Company","type":"text","required":true}]}])";

TEST_F(ChatLlm, FormIsOfferedByBothEngines) {
  Json expected = Json::parse(R"({"formId":"form_quote","name":"Request a quote",
      "fields":[{"id":"f1","label":"Company","type":"text","required":true}],"submitLabel":"Send"})");
  auto retrieval = chat_setup(s(), std::string("{") + kForm + "}");
  auto r = chat(s(), retrieval, {{"message", "Can I get a quote?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["form"], expected);
  EXPECT_TRUE(chat(s(), retrieval, {{"message", "hello"}}).json()["form"].is_null());

  auto openai = chat_setup(s(), std::string(R"({"engine":"openai",)") + kForm + "}");
  llm_->script({{200, "text/event-stream",
                 {sse_body({tool_chunk(0, "call_f", "show_form", R"({"names":["Request a quote"]})"), finish_chunk("tool_calls")})}},
                {200, "text/event-stream", {sse_body({text_chunk("Please fill this in."), finish_chunk("stop")})}}});
  auto o = chat(s(), openai, {{"message", "How much for 40 seats?"}});
  ASSERT_EQ(o.status, 200) << o.body;
  EXPECT_EQ(o.json()["form"], expected);
  EXPECT_EQ(o.json()["reply"], "Please fill this in.");
}

TEST_F(ChatLlm, LeadFormWhenAskedToBeContactedOrWithoutAnAnswer) {
  auto c = chat_setup(s(), R"({"leadForm":{"message":"How can we reach you?","fields":["name","email"]}})");
  Json expected = Json::parse(R"({"message":"How can we reach you?","fields":["name","email"],"form":null})");
  auto asked = chat(s(), c, {{"message", "Can someone contact me about pricing?"}});
  ASSERT_EQ(asked.status, 200) << asked.body;
  EXPECT_EQ(asked.json()["leadForm"], expected);
  auto unanswered = chat(s(), c, {{"message", "What is the airspeed of a swallow?"}});
  EXPECT_EQ(unanswered.json()["reply"], kDefaultFallback);
  EXPECT_EQ(unanswered.json()["leadForm"], expected);

  auto openai = chat_setup(s(), R"({"engine":"openai","leadForm":{"message":"How can we reach you?","fields":["name","email"]}})");
  llm_->script({{200, "text/event-stream", {sse_body({tool_chunk(0, "call_l", "ask_contact_details", "{}"), finish_chunk("tool_calls")})}},
                {200, "text/event-stream", {sse_body({text_chunk("Leave your details."), finish_chunk("stop")})}}});
  auto o = chat(s(), openai, {{"message", "I'd like a callback"}});
  ASSERT_EQ(o.status, 200) << o.body;
  EXPECT_EQ(o.json()["leadForm"], expected);
}

}  // namespace
}  // namespace parley::e2e
