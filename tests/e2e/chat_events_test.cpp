// POST …/chat with stream: true and Accept: text/event-stream: server-sent events, read with an
// SSE parser that follows the HTML standard's event-stream rules. Order (meta, text…, blocks,
// done), blocks equal to the JSON reply's, `error` after partial text, the heartbeat comment, and
// the plain-text stream unchanged without the header.
#include "chat_llm_support.h"

namespace parley::e2e {
namespace {

struct SseEvent {
  std::string type;
  std::string data;
};
struct SseStream {
  std::vector<SseEvent> events;
  int comments = 0;
  int comments_before_first_text = 0;
  bool ends_cleanly = true;  // the body ends at an event boundary

  std::vector<std::string> types() const {
    std::vector<std::string> out;
    for (const auto& e : events) out.push_back(e.type);
    return out;
  }
  const SseEvent* first(const std::string& type) const {
    for (const auto& e : events) {
      if (e.type == type) return &e;
    }
    return nullptr;
  }
  std::string text() const {
    std::string out;
    for (const auto& e : events) {
      if (e.type == "text") out += Json::parse(e.data)["delta"].get<std::string>();
    }
    return out;
  }
};

// The event-stream interpretation of the HTML standard (§9.2.6): lines end with CRLF, LF or CR;
// a line starting with ':' is a comment; "field: value" (one space after the colon dropped);
// data lines of an event join with '\n'; a blank line dispatches the event (type "message" when
// no event field); an event not ended by a blank line is dropped.
SseStream parse_sse(const std::string& body) {
  SseStream out;
  std::string type, data;
  bool has_data = false;
  size_t i = 0;
  while (i < body.size()) {
    size_t end = body.find_first_of("\r\n", i);
    if (end == std::string::npos) {
      out.ends_cleanly = false;
      break;
    }
    std::string line = body.substr(i, end - i);
    i = end + 1;
    if (body[end] == '\r' && i < body.size() && body[i] == '\n') ++i;
    if (line.empty()) {
      if (has_data) out.events.push_back({type.empty() ? "message" : type, data});
      type.clear();
      data.clear();
      has_data = false;
      continue;
    }
    if (line[0] == ':') {
      ++out.comments;
      if (!out.first("text")) ++out.comments_before_first_text;
      continue;
    }
    size_t colon = line.find(':');
    std::string field = line.substr(0, colon);
    std::string value = colon == std::string::npos ? "" : line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    if (field == "event") {
      type = value;
    } else if (field == "data") {
      if (has_data) data += "\n";
      data += value;
      has_data = true;
    }
  }
  if (has_data || !type.empty()) out.ends_cleanly = false;
  return out;
}

HttpResponse chat_events(const Server& s, const ChatSetup& c, const Json& body) {
  return s.request({"POST", "/api/v1/agents/" + c.agent + "/chat", body.dump(),
                    {bearer(c.key), "Accept: text/event-stream"}});
}

class ChatEvents : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  const Server& s() { return *server_; }
  static inline Server* server_ = nullptr;

  ChatSetup trained() {
    auto c = chat_setup(s(), R"({"showSources": true, "followUps": true})");
    auto r = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                      Json{{"type", "text"}, {"title", "Returns policy"},
                           {"content", "Returns are accepted within 30 days of delivery. Refunds go back to the "
                                       "original payment method."}}
                          .dump());
    EXPECT_EQ(r.status, 201) << r.body;
    for (int i = 0; i < 500; ++i) {
      if (s().get("/api/v1/agents/" + c.agent + "/sources", c.key).json()["training"]["done"] == true) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return c;
  }
};

TEST_F(ChatEvents, EventsComeInOrderAndCarryWhatTheJsonReplyCarries) {
  auto c = trained();
  auto json = chat(s(), c, {{"message", "Are returns accepted?"}});
  ASSERT_EQ(json.status, 200) << json.body;
  auto r = chat_events(s(), c, {{"message", "Are returns accepted?"}, {"stream", true}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "text/event-stream");
  EXPECT_EQ(r.header("cache-control"), "no-cache");
  auto sse = parse_sse(r.body);
  EXPECT_TRUE(sse.ends_cleanly) << r.body;
  auto types = sse.types();
  ASSERT_GE(types.size(), 4u) << r.body;
  EXPECT_EQ(types.front(), "meta");
  EXPECT_EQ(types[types.size() - 2], "blocks");
  EXPECT_EQ(types.back(), "done");
  for (size_t i = 1; i + 2 < types.size(); ++i) EXPECT_EQ(types[i], "text") << r.body;
  // meta names the conversation the headers name; the text is the JSON reply's.
  auto meta = Json::parse(sse.first("meta")->data);
  EXPECT_EQ(meta["conversationId"], r.header("x-conversation-id"));
  EXPECT_EQ(meta["sessionId"], r.header("x-session-id"));
  EXPECT_TRUE(meta.contains("liveChat"));
  auto reply = json.json();
  EXPECT_EQ(sse.text(), reply["reply"]);
  // blocks: exactly the JSON reply's fields after sessionId, with the same values.
  auto blocks = Json::parse(sse.first("blocks")->data);
  Json expected = reply;
  for (const char* k : {"reply", "conversationId", "sessionId"}) expected.erase(k);
  EXPECT_EQ(blocks, expected);
  EXPECT_EQ(blocks["sources"], (Json::array({{{"title", "Returns policy"}, {"url", nullptr}}})));
  EXPECT_EQ(Json::parse(sse.first("done")->data), Json::object());
  // Stored like any reply.
  auto conv = show_conversation(s(), meta["conversationId"].get<std::string>());
  EXPECT_EQ(conv["messages"][1]["content"], reply["reply"]);
}

TEST_F(ChatEvents, WithoutTheAcceptHeaderTheStreamIsPlainTextAndWithoutStreamJson) {
  auto c = trained();
  auto text = chat(s(), c, {{"message", "Are returns accepted?"}, {"stream", true}});
  EXPECT_EQ(text.header("content-type"), "text/plain; charset=utf-8");
  EXPECT_EQ(text.body, "Returns are accepted within 30 days of delivery.");
  auto json = chat_events(s(), c, {{"message", "Are returns accepted?"}});
  EXPECT_EQ(json.header("content-type").rfind("application/json", 0), 0u);
  EXPECT_EQ(json.json()["reply"], "Returns are accepted within 30 days of delivery.");
}

TEST_F(ChatEvents, AnErrorBeforeTheStreamStartsIsAJsonError) {
  auto c = trained();
  auto r = chat_events(s(), c, {{"message", ""}, {"stream", true}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "invalid_request");
}

// With a provider that writes slowly or fails: the heartbeat and `error` after partial text.
class ChatEventsLlm : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    llm_ = new FakeLlmServer();
    Env env = unlimited();
    env["PARLEY_LLM_API_KEY"] = "sk-server-secret";
    server_ = new Server(env, {"--llm-base-url", llm_->base_url(), "--llm-model", "default-model",
                               "--chat-timeout-ms", "3000", "--chat-heartbeat-ms", "200"});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete llm_;
  }
  const Server& s() { return *server_; }
  static inline Server* server_ = nullptr;
  static inline FakeLlmServer* llm_ = nullptr;
};

TEST_F(ChatEventsLlm, ASilentEngineGetsHeartbeatCommentsAfterMeta) {
  auto c = chat_setup(s(), kOpenAi);
  // Nothing for a second, then the reply.
  llm_->script({{200, "text/event-stream", {"", sse_body({text_chunk("Ahoy!"), finish_chunk("stop")})}, 1000}});
  auto r = chat_events(s(), c, {{"message", "hi"}, {"stream", true}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto sse = parse_sse(r.body);
  EXPECT_EQ(sse.types(), (std::vector<std::string>{"meta", "text", "blocks", "done"})) << r.body;
  EXPECT_GE(sse.comments_before_first_text, 3) << r.body;
  EXPECT_EQ(r.body.rfind("event: meta\n", 0), 0u) << "meta comes first: " << r.body;
  EXPECT_EQ(sse.text(), "Ahoy!");
  EXPECT_EQ(agent_counts(s(), c)["messages"], 2);
}

TEST_F(ChatEventsLlm, AFailureAfterTextIsAnErrorEventAndNothingIsStored) {
  auto c = chat_setup(s(), kOpenAi);
  // Some text, then the provider stalls past the chat deadline.
  llm_->script({{200, "text/event-stream", {sse_body({text_chunk("Partial ")}, false)}, 0, 6000}});
  auto r = chat_events(s(), c, {{"message", "hi"}, {"stream", true}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto sse = parse_sse(r.body);
  EXPECT_TRUE(sse.ends_cleanly) << r.body;
  EXPECT_EQ(sse.types(), (std::vector<std::string>{"meta", "text", "error"})) << r.body;
  EXPECT_EQ(sse.text(), "Partial ");
  auto error = Json::parse(sse.first("error")->data);
  EXPECT_EQ(error["error"]["code"], "timeout") << error.dump();
  EXPECT_EQ(error["error"]["message"], "The reply took longer than 3 seconds.");
  auto counts = agent_counts(s(), c);
  EXPECT_EQ(counts["messages"], 0) << counts.dump();
}

}  // namespace
}  // namespace parley::e2e
