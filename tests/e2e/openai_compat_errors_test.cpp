// Errors of the OpenAI-compatible front in OpenAI's shape ({"error": {message, type, param,
// code}}) with the statuses OpenAI uses: 401 invalid key, 404 unknown model, 400 naming the
// parameter (unsupported ones included), 403 scope, plan, private agent, plan messages and the
// agent's cap, 429 with Retry-After, 504 past the 55-second rule (here the suite's 1.5 s), and a
// stream that fails after it began.
#include "openai_support.h"

namespace parley::e2e {
namespace {

class OpenAiCompatErrors : public LlmChatTest {
 protected:
  static Json ask(const ChatSetup& c) {
    return {{"model", c.agent}, {"messages", {user_says("Hello")}}};
  }
};

TEST_F(OpenAiCompatErrors, AMissingOrUnknownKeyIs401) {
  auto c = chat_setup(s());
  auto none = s().request({"POST", kCompletions, ask(c).dump(), {}});
  EXPECT_EQ(none.status, 401);
  auto e = openai_error(none);
  EXPECT_EQ(e["code"], "invalid_api_key");
  EXPECT_EQ(e["type"], "invalid_request_error");
  EXPECT_TRUE(e["param"].is_null());
  EXPECT_EQ(none.header("www-authenticate"), "Bearer");
  auto unknown = complete(s(), "svc_live_" + std::string(32, 'x'), ask(c));
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(openai_error(unknown)["code"], "invalid_api_key");
  EXPECT_EQ(s().get("/openai/v1/models", "svc_live_" + std::string(32, 'y')).status, 401);
}

TEST_F(OpenAiCompatErrors, AModelThatIsNoAgentOfTheAccountIs404) {
  auto c = chat_setup(s());
  auto other = chat_setup(s());
  for (const std::string& model :
       {std::string("gpt-4o"), std::string("agt_missing"), other.agent}) {
    auto r = complete(s(), c.key, {{"model", model}, {"messages", {user_says("Hello")}}});
    EXPECT_EQ(r.status, 404) << model;
    auto e = openai_error(r);
    EXPECT_EQ(e["code"], "model_not_found");
    EXPECT_EQ(e["param"], "model");
    EXPECT_NE(e["message"].get<std::string>().find(model), std::string::npos);
  }
  EXPECT_EQ(agent_counts(s(), other)["conversations"], 0);
}

TEST_F(OpenAiCompatErrors, BadAndUnsupportedParametersAre400NamingThem) {
  auto c = chat_setup(s());
  auto with = [&](const std::string& field, const Json& value) {
    Json body = ask(c);
    body[field] = value;
    return complete(s(), c.key, body);
  };
  struct Case {
    std::string field;
    Json value;
    std::string code;
  };
  for (const auto& k : std::vector<Case>{
           {"n", 2, "unsupported_parameter"},
           {"tools",
            Json::parse(R"([{"type":"function","function":{"name":"f","parameters":{}}}])"),
            "unsupported_parameter"},
           {"tool_choice", "required", "unsupported_parameter"},
           {"logprobs", true, "unsupported_parameter"},
           {"audio", {{"voice", "alloy"}, {"format", "wav"}}, "unsupported_parameter"},
           {"response_format", {{"type", "json_object"}}, "unsupported_parameter"},
           {"temperature", 5, "invalid_value"},
           {"max_tokens", "many", "invalid_type"},
           {"user", std::string(101, 'u'), "invalid_value"}}) {
    auto r = with(k.field, k.value);
    EXPECT_EQ(r.status, 400) << k.field << ": " << r.body;
    auto e = openai_error(r);
    EXPECT_EQ(e["type"], "invalid_request_error");
    EXPECT_EQ(e["param"], k.field);
    EXPECT_EQ(e["code"], k.code) << k.field;
    EXPECT_NE(e["message"].get<std::string>().find(k.field), std::string::npos) << r.body;
  }
  auto image = complete(
      s(), c.key,
      {{"model", c.agent},
       {"messages",
        {{{"role", "user"},
          {"content",
           {{{"type", "image_url"}, {"image_url", {{"url", "https://example.com/a.png"}}}}}}}}}});
  EXPECT_EQ(image.status, 400);
  EXPECT_EQ(openai_error(image)["param"], "messages[0].content[0].type");
  auto no_question = complete(s(), c.key, {{"model", c.agent}, {"messages", {agent_said("Hi")}}});
  EXPECT_EQ(no_question.status, 400);
  EXPECT_EQ(openai_error(no_question)["param"], "messages");
  auto malformed = s().post(kCompletions, c.key, "{not json");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(openai_error(malformed)["type"], "invalid_request_error");
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 0);
}

TEST_F(OpenAiCompatErrors, ScopePlanPrivacyAndMessageLimitsAre403) {
  auto c = chat_setup(s());
  auto read_only = s().create_key(c.account, "agents:read");
  auto r = complete(s(), read_only, ask(c));
  EXPECT_EQ(r.status, 403);
  auto e = openai_error(r);
  EXPECT_EQ(e["type"], "permission_error");
  EXPECT_EQ(e["code"], "insufficient_scope");
  auto chat_only = s().create_key(c.account, "chat");
  EXPECT_EQ(openai_error(s().get("/openai/v1/models", chat_only))["code"], "insufficient_scope");

  std::string hidden =
      s().admin({"agent", "create", "--account", c.account, "--name", "Hidden", "--private"})["id"];
  auto priv = complete(s(), c.key, {{"model", hidden}, {"messages", {user_says("Hello")}}});
  EXPECT_EQ(priv.status, 403);
  EXPECT_EQ(openai_error(priv)["code"], "agent_private");

  auto capped = chat_setup(s(), R"({"monthlyMessageCap": 1})");
  ASSERT_EQ(complete(s(), capped.key, ask(capped)).status, 200);
  auto cap = complete(s(), capped.key, ask(capped));
  EXPECT_EQ(cap.status, 403);
  EXPECT_EQ(openai_error(cap)["code"], "agent_cap_reached");
  EXPECT_EQ(openai_error(cap)["type"], "insufficient_quota");

  auto limited = chat_setup(s());
  s().admin({"account", "set-limits", limited.account, R"({"messagesPerMonth": 1})"});
  ASSERT_EQ(complete(s(), limited.key, ask(limited)).status, 200);
  auto used_up = complete(s(), limited.key, ask(limited));
  EXPECT_EQ(used_up.status, 403);
  EXPECT_EQ(openai_error(used_up)["code"], "message_limit_reached");

  s().admin({"account", "set-plan", limited.account, "free"});
  // The server hears of the plan the CLI changed through the database (on PostgreSQL by a
  // notification, which may come a moment later).
  auto free = complete(s(), limited.key, ask(limited));
  for (int i = 0; i < 100 && openai_error(free)["code"] != "plan_required"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    free = complete(s(), limited.key, ask(limited));
  }
  EXPECT_EQ(free.status, 403);
  EXPECT_EQ(openai_error(free)["code"], "plan_required");
}

TEST_F(OpenAiCompatErrors, TheRateLimitIs429WithRetryAfter) {
  TestClock clock;
  Server limited(Env{{"PARLEY_RATE_LIMIT_PER_MINUTE", "2"}}, clock.args());
  auto c = chat_setup(limited);
  clock.advance_to_next_minute();
  EXPECT_EQ(limited.get("/openai/v1/models", c.key).status, 200);
  EXPECT_EQ(complete(limited, c.key, ask(c)).status, 200);
  auto r = complete(limited, c.key, ask(c));
  EXPECT_EQ(r.status, 429);
  auto e = openai_error(r);
  EXPECT_EQ(e["code"], "rate_limit_exceeded");
  EXPECT_EQ(e["type"], "requests");
  int retry_after = std::stoi(r.header("retry-after"));
  EXPECT_GE(retry_after, 1);
  EXPECT_LE(retry_after, 60);
  EXPECT_EQ(r.header("x-ratelimit-remaining"), "0");
}

TEST_F(OpenAiCompatErrors, AReplyPastTheDeadlineIs504AndNothingIsStored) {
  auto c = chat_setup(s(), kOpenAi);
  llm_->script({{200, "text/event-stream", {}, 0, 5000}});
  auto r = complete(s(), c.key, ask(c));
  EXPECT_EQ(r.status, 504) << r.body;
  EXPECT_EQ(openai_error(r)["code"], "timeout");
  EXPECT_EQ(openai_error(r)["type"], "server_error");
  Json streamed = ask(c);
  streamed["stream"] = true;
  auto s2 = complete(s(), c.key, streamed);
  EXPECT_EQ(s2.status, 504) << s2.body;
  EXPECT_EQ(openai_error(s2)["code"], "timeout");
  expect_nothing_stored(c);
}

TEST_F(OpenAiCompatErrors, AStreamThatFailsAfterTextEndsWithAnErrorEventAndNoDone) {
  auto c = chat_setup(s(), kOpenAi);
  llm_->script({{200, "text/event-stream", {sse_body({text_chunk("Partial ")}, false)}, 0, 5000}});
  Json body = ask(c);
  body["stream"] = true;
  auto r = complete(s(), c.key, body);
  EXPECT_EQ(r.status, 200);
  auto lines = data_lines(r.body);
  ASSERT_FALSE(lines.empty()) << r.body;
  EXPECT_NE(lines.back(), "[DONE]");
  auto last = Json::parse(lines.back());
  EXPECT_EQ(last["error"]["code"], "timeout") << r.body;
  EXPECT_EQ(streamed_text(chunks_of(r.body)), "Partial ");
  expect_nothing_stored(c);
}

TEST_F(OpenAiCompatErrors, AConversationATeamMemberTookOverAnswersEmptyAndPaused) {
  auto c = chat_setup(s());
  Json body = ask(c);
  body["user"] = "taken-over";
  auto first = complete(s(), c.key, body);
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conversation = first.json()["parley"]["conversationId"];
  s().admin({"conversation", "takeover", conversation, "--member", "Ada"});
  auto paused = complete(s(), c.key, body);
  ASSERT_EQ(paused.status, 200) << paused.body;
  EXPECT_EQ(paused.json()["choices"][0]["message"]["content"], "");
  EXPECT_EQ(paused.json()["parley"]["liveChat"], "paused");
  body["stream"] = true;
  auto streamed = complete(s(), c.key, body);
  auto chunks = chunks_of(streamed.body);
  ASSERT_FALSE(chunks.empty()) << streamed.body;
  EXPECT_EQ(chunks.back()["parley"]["liveChat"], "paused");
  EXPECT_EQ(data_lines(streamed.body).back(), "[DONE]");
}

}  // namespace
}  // namespace parley::e2e
