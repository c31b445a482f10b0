// An `openai` agent's own tools (issue 29 §3): remote MCP servers (a server made with the official
// MCP SDK, tests/clients/support/tool_servers.mjs) and web search (a SearXNG JSON stand-in and a
// Brave-shaped one), with the fake provider answering in tool calls. The round trip, tools that
// are not allowed never called, a failing tool told to the model, the cap on rounds, the address
// guard, `web: true` sources in JSON, streamed and SSE replies, and the header secret sealed and
// never shown again.
#include "chat_llm_support.h"
#include "tool_servers.h"

namespace parley::e2e {
namespace {

constexpr const char* kSecretKey = "c2VjcmV0LWtleS1zZWNyZXQta2V5LXNlY3JldC1rZXk=";

class AgentToolsTest : public ::testing::Test {
 protected:
  static Env env() {
    Env e = unlimited();
    e["PARLEY_SECRET_KEY"] = kSecretKey;
    return e;
  }
  static void SetUpTestSuite() {
    llm_ = new FakeLlmServer();
    tools_ = new ToolServers();
    server_ = new Server(env(), {"--llm-base-url", llm_->base_url(), "--llm-model", "m",
                                 "--webhook-allow-private-targets", "--tool-max-rounds", "2"});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete tools_;
    delete llm_;
  }
  void SetUp() override {
    llm_->clear_requests();
    tools_->reset();
  }

  const Server& s() { return *server_; }
  static std::string shop(const std::string& path = "/mcp") {
    return Json{{"name", "shop"},
                {"url", tools_->base_url() + path},
                {"headerName", "Authorization"},
                {"headerValue", "Bearer s3cret"},
                {"allowedTools", {"lookup_order", "failing_tool"}}}
        .dump();
  }
  static std::string with_shop(const std::string& path = "/mcp") {
    return R"({"engine":"openai","mcpServers":[)" + shop(path) + "]}";
  }
  static std::string with_search() {
    return Json{{"engine", "openai"},
                {"webSearch", {{"enabled", true}, {"url", tools_->base_url()}}}}
        .dump();
  }
  static std::vector<std::string> tool_names(const Json& body) {
    std::vector<std::string> out;
    for (const auto& t : body.value("tools", Json::array())) out.push_back(t["function"]["name"]);
    return out;
  }
  static Json prompt(size_t i) { return Json::parse(llm_->requests().at(i).body); }
  // The `tool` message of a prompt that answers `call_id`, parsed.
  static Json tool_result(const Json& body, const std::string& call_id) {
    for (const auto& m : body["messages"])
      if (m["role"] == "tool" && m["tool_call_id"] == call_id)
        return Json::parse(m["content"].get<std::string>());
    ADD_FAILURE() << "no tool result for " << call_id << " in " << body.dump();
    return Json();
  }
  static std::string page(const std::string& path) { return tools_->base_url() + path; }

  static inline FakeLlmServer* llm_ = nullptr;
  static inline ToolServers* tools_ = nullptr;
  static inline Server* server_ = nullptr;
};

TEST_F(AgentToolsTest, TheModelCallsAnAllowedMcpToolAndReadsItsResult) {
  auto c = chat_setup(s(), with_shop());
  llm_->script({tool_calls_reply({{"call_1", "mcp_shop_lookup_order", R"({"orderId":"42"})"}}),
                text_reply("Order 42 has shipped.")});
  auto r = chat(s(), c, {{"message", "Where is order 42?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "Order 42 has shipped.");

  ASSERT_EQ(llm_->requests().size(), 2u);
  auto first = prompt(0);
  EXPECT_EQ(tool_names(first),
            (std::vector<std::string>{"mcp_shop_lookup_order", "mcp_shop_failing_tool"}));
  EXPECT_EQ(first["tools"][0]["function"]["description"], "Looks up an order by its number.");
  EXPECT_EQ(first["tools"][0]["function"]["parameters"]["required"], Json::array({"orderId"}));
  auto result = tool_result(prompt(1), "call_1");
  EXPECT_EQ(result["content"], "Order 42 has shipped.");
  EXPECT_EQ(result["structuredContent"], (Json{{"orderId", "42"}, {"status", "shipped"}}));

  auto log = tools_->log();
  ASSERT_EQ(log["calls"].size(), 1u) << log.dump();
  EXPECT_EQ(log["calls"][0]["tool"], "lookup_order");
  EXPECT_EQ(log["calls"][0]["args"], (Json{{"orderId", "42"}}));
  EXPECT_EQ(log["calls"][0]["auth"], "Bearer s3cret");

  // The next reply of the same agent finds the session and its tools in the cache.
  llm_->script({tool_calls_reply({{"call_2", "mcp_shop_lookup_order", R"({"orderId":"7"})"}}),
                text_reply("Order 7 has shipped.")});
  auto again = chat(s(), c, {{"message", "And order 7?"}});
  ASSERT_EQ(again.status, 200) << again.body;
  int initializations = 0;
  auto requests = tools_->log()["requests"];
  for (const auto& req : requests)
    if (req["path"] == "/mcp" && req["session"] == "") ++initializations;
  EXPECT_EQ(initializations, 1) << requests.dump();
  EXPECT_EQ(tools_->log()["calls"].size(), 2u);
}

TEST_F(AgentToolsTest, AProviderAndAnMcpServerAnsweringInJsonWorkAlike) {
  auto c = chat_setup(s(), with_shop("/mcp-json"));
  llm_->script({tool_calls_json_reply({{"call_1", "mcp_shop_lookup_order", R"({"orderId":"9"})"}}),
                text_reply("Shipped.")});
  auto r = chat(s(), c, {{"message", "Where is order 9?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "Shipped.");
  EXPECT_EQ(tool_result(prompt(1), "call_1")["content"], "Order 9 has shipped.");
}

TEST_F(AgentToolsTest, AToolThatIsNotAllowedIsNeverOfferedNorCalled) {
  auto c = chat_setup(s(), with_shop());
  llm_->script(
      {tool_calls_reply({{"call_1", "mcp_shop_secret_tool", "{}"}}), text_reply("Sorry.")});
  auto r = chat(s(), c, {{"message", "Tell me the secret"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto names = tool_names(prompt(0));
  EXPECT_EQ(std::count(names.begin(), names.end(), "mcp_shop_secret_tool"), 0);
  EXPECT_EQ(tool_result(prompt(1), "call_1"), (Json{{"error", "unknown tool"}}));
  EXPECT_EQ(tools_->log()["calls"], Json::array());
}

TEST_F(AgentToolsTest, AFailingToolIsToldToTheModelAndTheReplyGoesOn) {
  auto c = chat_setup(s(), with_shop());
  llm_->script({tool_calls_reply({{"call_1", "mcp_shop_failing_tool", "{}"}}),
                text_reply("The warehouse is closed today.")});
  auto r = chat(s(), c, {{"message", "Check the warehouse"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(tool_result(prompt(1), "call_1"), (Json{{"error", "The warehouse is closed."}}));

  // A server that cannot be reached: its tools are not offered, and the reply goes on.
  auto gone = chat_setup(
      s(),
      R"({"engine":"openai","mcpServers":[{"name":"gone","url":"http://127.0.0.1:1/mcp","allowedTools":["x"]}]})");
  llm_->clear_requests();
  llm_->script({text_reply("Hello.")});
  auto hello = chat(s(), gone, {{"message", "Hi"}});
  ASSERT_EQ(hello.status, 200) << hello.body;
  EXPECT_FALSE(prompt(0).contains("tools"));
}

TEST_F(AgentToolsTest, AfterTheLastRoundTheModelMustAnswer) {
  auto c = chat_setup(s(), with_shop());
  llm_->script({tool_calls_reply({{"call_1", "mcp_shop_lookup_order", R"({"orderId":"1"})"}}),
                tool_calls_reply({{"call_2", "mcp_shop_lookup_order", R"({"orderId":"2"})"}}),
                text_reply("Done.")});
  auto r = chat(s(), c, {{"message", "Orders 1 and 2?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "Done.");
  ASSERT_EQ(llm_->requests().size(), 3u);  // --tool-max-rounds 2
  EXPECT_FALSE(prompt(0).contains("tool_choice"));
  EXPECT_FALSE(prompt(1).contains("tool_choice"));
  EXPECT_EQ(prompt(2)["tool_choice"], "none");
  EXPECT_EQ(tools_->log()["calls"].size(), 2u);
}

TEST_F(AgentToolsTest, WebSearchPagesAreReadAndListedAsWebSourcesInJson) {
  auto c = chat_setup(s(), with_search());  // showSources is off: web pages are listed all the same
  llm_->script({tool_calls_reply({{"call_1", "web_search", R"({"query":"tyre pressure"})"}}),
                text_reply("Seven bar for road tyres.")});
  auto r = chat(s(), c, {{"message", "How hard should I pump my tyres?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["sources"],
            (Json{{{"title", "Tyre guide"}, {"url", page("/pages/tyres.html")}, {"web", true}},
                  {{"title", "Missing page"}, {"url", page("/pages/missing")}, {"web", true}}}));
  EXPECT_EQ(tool_names(prompt(0)), (std::vector<std::string>{"web_search"}));
  auto result = tool_result(prompt(1), "call_1");
  ASSERT_EQ(result["results"].size(), 2u) << result.dump();
  // The page read through the extractor; the one that is gone keeps its snippet.
  EXPECT_NE(result["results"][0]["text"].get<std::string>().find("pumped to seven bar"),
            std::string::npos);
  EXPECT_EQ(result["results"][1]["text"], "The snippet of a page that is gone.");
  auto log = tools_->log();
  EXPECT_EQ(log["searches"], (Json{{{"q", "tyre pressure"}, {"format", "json"}}}));
  ASSERT_EQ(log["pages"].size(), 2u) << log.dump();  // read at once, in any order
  for (const auto& p : log["pages"])
    if (p["path"] == "/pages/tyres.html")
      EXPECT_EQ(p["agent"].get<std::string>().rfind("ParleyBot/", 0), 0u);
  // Stored with the reply, as the conversation shows them.
  auto conv = show_conversation(s(), r.json()["conversationId"]);
  EXPECT_EQ(conv["messages"][1]["sources"], r.json()["sources"]);
}

TEST_F(AgentToolsTest, WebSourcesComeWithStreamedAndEventStreamReplies) {
  auto c = chat_setup(s(), with_search());
  llm_->script({tool_calls_reply({{"call_1", "web_search", R"({"query":"tyres"})"}}),
                text_reply("Seven bar.")});
  auto text = s().request({"POST",
                           "/api/v1/agents/" + c.agent + "/chat",
                           Json{{"message", "Tyres?"}, {"stream", true}}.dump(),
                           {bearer(c.key)}});
  ASSERT_EQ(text.status, 200) << text.body;
  EXPECT_EQ(text.body, "Seven bar.");
  // The text stream carries no blocks: the stored message has them.
  auto conv = show_conversation(s(), text.header("x-conversation-id"));
  ASSERT_EQ(conv["messages"].size(), 2u);
  ASSERT_EQ(conv["messages"][1]["sources"].size(), 2u) << conv.dump();
  EXPECT_EQ(conv["messages"][1]["sources"][0]["web"], true);

  llm_->script({tool_calls_reply({{"call_1", "web_search", R"({"query":"tyres"})"}}),
                text_reply("Seven bar.")});
  auto events = s().request({"POST",
                             "/api/v1/agents/" + c.agent + "/chat",
                             Json{{"message", "Tyres?"}, {"stream", true}}.dump(),
                             {bearer(c.key), "Accept: text/event-stream"}});
  ASSERT_EQ(events.status, 200) << events.body;
  const std::string marker = "event: blocks\ndata: ";
  size_t at = events.body.find(marker);
  ASSERT_NE(at, std::string::npos) << events.body;
  size_t end = events.body.find('\n', at + marker.size());
  auto blocks = Json::parse(events.body.substr(at + marker.size(), end - at - marker.size()));
  ASSERT_EQ(blocks["sources"].size(), 2u) << blocks.dump();
  EXPECT_EQ(blocks["sources"][0],
            (Json{{"title", "Tyre guide"}, {"url", page("/pages/tyres.html")}, {"web", true}}));
}

TEST_F(AgentToolsTest, BraveSearchSendsItsTokenAndGivesSources) {
  auto settings = Json{{"engine", "openai"},
                       {"webSearch",
                        {{"enabled", true},
                         {"provider", "brave"},
                         {"url", page("/brave")},
                         {"apiKey", "brave-token"},
                         {"fetchPages", false},
                         {"maxResults", 1}}}};
  auto c = chat_setup(s(), settings.dump());
  llm_->script(
      {tool_calls_reply({{"call_1", "web_search", R"({"query":"tyres"})"}}), text_reply("Ok.")});
  auto r = chat(s(), c, {{"message", "Tyres?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["sources"], (Json{{{"title", "Tyres (snippet title)"},
                                        {"url", page("/pages/tyres.html")},
                                        {"web", true}}}));
  auto log = tools_->log();
  EXPECT_EQ(log["searches"][0]["token"], "brave-token");
  EXPECT_EQ(log["pages"], Json::array());  // fetchPages off: the snippets only
  EXPECT_EQ(tool_result(prompt(1), "call_1")["results"][0]["text"], "A snippet about tyres.");
}

TEST_F(AgentToolsTest, TheGuardRefusesPrivateAddressesWithoutTheAllowance) {
  Server guarded(env(), {"--llm-base-url", llm_->base_url(), "--llm-model", "m"});
  auto settings = Json::parse(with_shop());
  settings["webSearch"] = {{"enabled", true}, {"url", tools_->base_url()}};
  auto c = chat_setup(guarded, settings.dump());
  llm_->script({text_reply("Hello.")});
  auto r = chat(guarded, c, {{"message", "Hi"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(prompt(0).contains("tools"));  // neither the MCP tools nor web_search
  auto requests = tools_->log()["requests"];
  for (const auto& req : requests)
    EXPECT_EQ(req["path"], "/log") << "nothing but the test's own reads reached the stand-ins";
  EXPECT_NE(guarded.log().find("mcp_server_refused"), std::string::npos);
}

TEST_F(AgentToolsTest, TheHeaderSecretIsSealedAndNeverShownAgain) {
  auto c = chat_setup(s(), with_shop());
  // Stored sealed: the row never holds the secret.
  auto row = s().sql("SELECT settings FROM agents WHERE id = '" + c.agent + "'");
  ASSERT_EQ(row.size(), 1u);
  EXPECT_EQ(row[0][0].find("s3cret"), std::string::npos) << row[0][0];
  EXPECT_NE(row[0][0].find("\"headerValue\":\"v1."), std::string::npos) << row[0][0];
  // Shown as the marker to operators and to the dashboard.
  auto shown = s().admin({"agent", "get", c.agent})["settings"]["mcpServers"][0];
  EXPECT_EQ(shown["headerValue"], "********");
  auto owner = create_member(s(), c.account, "owner")["token"].get<std::string>();
  auto got = s().get("/console/v1/agents/" + c.agent, owner);
  ASSERT_EQ(got.status, 200) << got.body;
  auto server = got.json()["data"]["settings"]["mcpServers"][0];
  EXPECT_EQ(server["headerValue"], "********");
  EXPECT_EQ(got.body.find("s3cret"), std::string::npos);

  // Written back with the marker: the stored secret stays and still reaches the server.
  auto kept = s().patch("/console/v1/agents/" + c.agent, owner,
                        Json{{"settings", {{"mcpServers", {server}}}}}.dump());
  ASSERT_EQ(kept.status, 200) << kept.body;
  llm_->script({tool_calls_reply({{"call_1", "mcp_shop_lookup_order", R"({"orderId":"5"})"}}),
                text_reply("Shipped.")});
  ASSERT_EQ(chat(s(), c, {{"message", "Order 5?"}}).status, 200);
  EXPECT_EQ(tools_->log()["calls"][0]["auth"], "Bearer s3cret");

  // The marker may not follow the server to another address.
  server["url"] = "https://elsewhere.example.com/mcp";
  auto moved = s().patch("/console/v1/agents/" + c.agent, owner,
                         Json{{"settings", {{"mcpServers", {server}}}}}.dump());
  EXPECT_EQ(moved.status, 400) << moved.body;
  EXPECT_NE(moved.error_message().find("mcpServers[0].headerValue"), std::string::npos)
      << moved.body;
}

TEST_F(AgentToolsTest, ToolSettingsAreValidatedNamingTheField) {
  auto c = chat_setup(s(), R"({"engine":"openai"})");
  auto owner = create_member(s(), c.account, "owner")["token"].get<std::string>();
  auto patch = [&](const std::string& settings) {
    return s().patch("/console/v1/agents/" + c.agent, owner, R"({"settings":)" + settings + "}");
  };
  struct Case {
    std::string settings, field;
  };
  std::vector<Case> cases = {
      {R"({"mcpServers":[{"name":"a b","url":"https://x.example/mcp","allowedTools":[]}]})",
       "mcpServers[0].name"},
      {R"({"mcpServers":[{"name":"a","url":"ftp://x","allowedTools":[]}]})", "mcpServers[0].url"},
      {R"({"mcpServers":[{"name":"a","url":"https://x.example/mcp"}]})",
       "mcpServers[0].allowedTools"},
      {R"({"mcpServers":[{"name":"a","url":"https://x.example/mcp","allowedTools":[],"headerName":"Accept","headerValue":"x"}]})",
       "mcpServers[0].headerName"},
      {R"({"mcpServers":[{"name":"a","url":"https://x.example/mcp","allowedTools":[]},{"name":"a","url":"https://y.example/mcp","allowedTools":[]}]})",
       "mcpServers[1].name"},
      {R"({"webSearch":{"enabled":true}})", "webSearch.url"},
      {R"({"webSearch":{"enabled":true,"provider":"bing","url":"https://s.example"}})",
       "webSearch.provider"},
      {R"({"webSearch":{"enabled":true,"url":"https://s.example","maxResults":11}})",
       "webSearch.maxResults"},
  };
  for (const auto& k : cases) {
    auto r = patch(k.settings);
    EXPECT_EQ(r.status, 400) << k.settings << " " << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request") << r.body;
    EXPECT_NE(r.error_message().find(k.field), std::string::npos) << k.field << ": " << r.body;
  }
}

}  // namespace
}  // namespace parley::e2e
