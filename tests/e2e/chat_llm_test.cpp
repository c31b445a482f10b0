// Chat through the `openai` engine against a real loopback provider speaking the protocol: the
// prompt sent (instructions, knowledge, history), the agent's provider settings, text relayed as
// the chat stream, sources cited back, provider errors and a stall past the deadline.
#include <unistd.h>

#include <fstream>

#include "chat_llm_support.h"

namespace parley::e2e {
namespace {

class ChatLlm : public LlmChatTest {};

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
  EXPECT_EQ(body["messages"][0]["content"].get<std::string>().rfind("You are Polly, a pirate.", 0),
            0u);
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
  auto second = chat(
      s(), c, {{"message", "Second question"}, {"conversationId", first.json()["conversationId"]}});
  ASSERT_EQ(second.status, 200) << second.body;
  auto body = last_prompt();
  ASSERT_EQ(body["messages"].size(), 4u);
  EXPECT_EQ(body["messages"][1], (Json{{"role", "user"}, {"content", "First question"}}));
  EXPECT_EQ(body["messages"][2], (Json{{"role", "assistant"}, {"content", "First answer."}}));
  EXPECT_EQ(body["messages"][3], (Json{{"role", "user"}, {"content", "Second question"}}));
}

TEST_F(ChatLlm, AnAgentsOwnProviderOnAnInternalAddressIsRefusedAndGetsNoServerKey) {
  // A team member may point an agent at its own provider; the address guard of webhooks applies
  // (this suite's server does not allow private targets) and the server's key is never sent there.
  auto c = chat_setup(s(), R"({"engine":"openai","llm":{"baseUrl":")" + llm_->base_url() +
                               R"(/v1","model":"agent-model"}})");
  say({"ok"});
  auto r = chat(s(), c, {{"message", "hi"}});
  EXPECT_EQ(r.status, 500) << r.body;
  EXPECT_EQ(r.error_code(), "internal_error");
  EXPECT_TRUE(llm_->requests().empty());
}

TEST_F(ChatLlm, TheAgentsLlmSettingsWinOverTheServerDefaults) {
  // Private targets allowed (test and development setting), so the loopback provider passes.
  Env env = unlimited();
  env["PARLEY_LLM_API_KEY"] = "sk-server-secret";
  env["PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS"] = "1";
  Server server(env, {"--llm-base-url", llm_->base_url(), "--llm-model", "default-model"});
  const Server& s = server;
  auto c = chat_setup(s, R"({"engine":"openai","llm":{"baseUrl":")" + llm_->base_url() +
                             R"(/v1","model":"agent-model","apiKey":"sk-agent-own"}})");
  say({"ok"});
  ASSERT_EQ(chat(s, c, {{"message", "hi"}}).status, 200);
  auto reqs = llm_->requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer sk-agent-own");
  EXPECT_EQ(Json::parse(reqs[0].body)["model"], "agent-model");
  // People reading the agent's settings never see the provider key; writing them back keeps it.
  auto shown = s.admin({"agent", "get", c.agent});
  EXPECT_EQ(shown["settings"]["llm"]["apiKey"], "********");
  EXPECT_EQ(shown.dump().find("sk-agent-own"), std::string::npos);
  s.admin({"agent", "update", c.agent, "--settings",
             Json{{"llm", shown["settings"]["llm"]}}.dump()});
  say({"ok"});
  ASSERT_EQ(chat(s, c, {{"message", "hi"}}).status, 200);
  EXPECT_EQ(llm_->requests().back().headers["authorization"], "Bearer sk-agent-own");
}

TEST_F(ChatLlm, TheProviderStreamIsRelayedAsTheChatStream) {
  auto c = chat_setup(s(), kOpenAi);
  std::string body = sse_body({text_chunk("Streamed "), text_chunk("pieces "),
                               text_chunk("arrive."), finish_chunk("stop")});
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
                        Json{{"type", "qa"},
                             {"question", "What are your opening hours?"},
                             {"answer", "We are open 9 to 5."}}
                            .dump());
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
  EXPECT_EQ(r.json()["sources"],
            (Json::array({{{"title", "What are your opening hours?"}, {"url", nullptr}}})));
}

TEST_F(ChatLlm, AProviderErrorIs500AndNothingIsStored) {
  auto c = chat_setup(s(), kOpenAi);
  llm_->script(
      {{503, "application/json", {R"({"error":{"message":"overloaded, key sk-server-secret"}})"}}});
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

TEST_F(ChatLlm, TheProvidersStatusIsNotEchoedToTheCaller) {
  // Whatever the provider answers, the caller reads the same error: a status in the message would
  // tell a team member what listens behind an llm.baseUrl (a port oracle).
  auto c = chat_setup(s(), kOpenAi);
  std::vector<std::string> bodies;
  for (int status : {401, 404, 500}) {
    llm_->script({{status, "text/plain", {"upstream says " + std::to_string(status)}}});
    auto r = chat(s(), c, {{"message", "hi"}});
    EXPECT_EQ(r.status, 500) << r.body;
    EXPECT_EQ(r.error_code(), "internal_error");
    EXPECT_EQ(r.body.find(std::to_string(status)), std::string::npos) << r.body;
    bodies.push_back(r.error_message());
  }
  for (const auto& b : bodies)
    EXPECT_EQ(b, "The language model provider did not give a usable reply.");
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

TEST_F(ChatLlm, AStreamThatFailsAfterTextIsCutShortAndNothingIsStored) {
  // The provider sends some text, then stalls past the chat deadline: the client has the 200 and
  // the text already, and must be able to tell the reply is incomplete (no terminating chunk).
  auto c = chat_setup(s(), kOpenAi);
  llm_->script({{200, "text/event-stream", {sse_body({text_chunk("Partial ")}, false)}, 0, 5000}});
  char tpl[] = "/tmp/parley-cut-XXXXXX";
  int fd = mkstemp(tpl);
  close(fd);
  auto r = run_process({"/usr/bin/curl", "-s", "-o", tpl, "-w", "%{http_code}", "-X", "POST",
                        "-H", "Authorization: Bearer " + c.key, "-H", "Content-Type: application/json",
                        "--data", R"({"message": "hi", "stream": true})",
                        s().base_url() + "/api/v1/agents/" + c.agent + "/chat"},
                       {});
  EXPECT_EQ(r.out, "200");
  EXPECT_EQ(r.exit_code, 18) << "curl should report a transfer cut short";  // CURLE_PARTIAL_FILE
  std::ifstream body(tpl);
  std::string text((std::istreambuf_iterator<char>(body)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "Partial ");
  unlink(tpl);
  expect_nothing_stored(c);
}

TEST_F(ChatLlm, AHostileProviderStreamIsRefusedAndTheServerKeepsServing) {
  // A provider an editor points an agent at may send anything: chunks nested a million levels
  // deep (a recursive parser's stack overflow), tool arguments nested as deep, or one event's data
  // lines that never end. Each reply fails with 500 and the server goes on answering.
  auto c = chat_setup(s(), kOpenAi);
  std::string deep = std::string(300'000, '[') + std::string(300'000, ']');
  std::string deep_arguments = std::string(200'000, '[');
  std::string endless_event;
  for (int i = 0; i < 40'000; ++i) endless_event += "data: " + std::string(100, 'x') + "\n";
  for (const auto& body : {"data: " + deep + "\n\n", endless_event,
                           sse_body({tool_chunk(0, "call_1", "show_buttons", deep_arguments),
                                     finish_chunk("tool_calls")})}) {
    llm_->script({{200, "text/event-stream", split_every(body, 64 * 1024)}});
    auto r = chat(s(), c, {{"message", "hi"}});
    EXPECT_TRUE(r.status == 500 || r.status == 200) << r.status << " " << r.body.substr(0, 200);
    if (r.status == 500) EXPECT_EQ(r.error_code(), "internal_error");
    auto streamed = chat(s(), c, {{"message", "hi"}, {"stream", true}});
    EXPECT_NE(streamed.status, 0);
  }
  llm_->script({{200, "text/event-stream", {"data: " + deep + "\n\n"}}});
  auto r = chat(s(), c, {{"message", "hi"}});
  EXPECT_EQ(r.status, 500) << r.body.substr(0, 200);
  EXPECT_EQ(r.error_code(), "internal_error");
  say({"Still ", "here."});
  auto after = chat(s(), c, {{"message", "hi"}});
  EXPECT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(after.json()["reply"], "Still here.");
}

}  // namespace
}  // namespace parley::e2e
