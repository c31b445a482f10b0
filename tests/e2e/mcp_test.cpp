// POST /mcp, the MCP server: the Streamable HTTP transport's rules (JSON answers, 202 for
// notifications, 405 for GET and DELETE, the protocol version header), JSON-RPC's errors, the
// key (401), tools listed by the key's scopes, and each tool's result and errors. One server for
// the suite; each test makes its own account.
#include <chrono>
#include <thread>

#include "chat_support.h"

namespace parley::e2e {
namespace {

class Mcp : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
  const Server& s() { return *server_; }

  static HttpResponse post_raw(const std::string& key, const std::string& body,
                               std::vector<std::string> headers = {}) {
    HttpRequest req;
    req.method = "POST";
    req.path = "/mcp";
    req.body = body;
    if (!key.empty()) req.headers.push_back("Authorization: Bearer " + key);
    req.headers.push_back("Accept: application/json, text/event-stream");
    for (auto& h : headers) req.headers.push_back(h);
    return server_->request(req);
  }
  static HttpResponse rpc(const std::string& key, const std::string& method, const Json& params,
                          std::vector<std::string> headers = {}) {
    Json msg = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", method}};
    if (!params.is_null()) msg["params"] = params;
    return post_raw(key, msg.dump(), std::move(headers));
  }
  // tools/call's result (the JSON-RPC response's `result`).
  static Json call(const std::string& key, const std::string& tool, const Json& args) {
    auto r = rpc(key, "tools/call", {{"name", tool}, {"arguments", args}});
    EXPECT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(j["id"], 7) << r.body;
    EXPECT_TRUE(j.contains("result")) << r.body;
    return j["result"];
  }
  static std::string error_text(const Json& result) {
    EXPECT_EQ(result["isError"], true) << result.dump();
    EXPECT_FALSE(result.contains("structuredContent")) << result.dump();
    return result["content"][0]["text"].get<std::string>();
  }
  static Json structured(const Json& result) {
    EXPECT_EQ(result["isError"], false) << result.dump();
    // The same JSON as text, for clients that read only text.
    EXPECT_EQ(Json::parse(result["content"][0]["text"].get<std::string>()),
              result["structuredContent"]);
    return result["structuredContent"];
  }
  static std::vector<std::string> tool_names(const std::string& key) {
    auto r = rpc(key, "tools/list", Json::object());
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::string> names;
    const Json j = r.json();  // kept: a range-for over a temporary's member would dangle
    for (const auto& t : j["result"]["tools"]) names.push_back(t["name"]);
    return names;
  }
  void add_text(const ChatSetup& c, const std::string& title, const std::string& content) {
    auto r = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                      Json{{"type", "text"}, {"title", title}, {"content", content}}.dump());
    ASSERT_LT(r.status, 300) << r.body;
    for (int i = 0; i < 1000; ++i) {
      auto t = s().get("/api/v1/agents/" + c.agent + "/sources", c.key);
      if (t.status == 200 && t.json()["training"]["done"] == true) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "training did not finish";
  }
};
Server* Mcp::server_ = nullptr;

TEST_F(Mcp, InitializeAnswersInJsonWithTheVersionTheClientAsked) {
  auto c = chat_setup(s());
  Json params = {{"protocolVersion", "2025-06-18"},
                 {"capabilities", Json::object()},
                 {"clientInfo", {{"name", "e2e"}, {"version", "1"}}}};
  auto r = rpc(c.key, "initialize", params);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_FALSE(r.has_header("mcp-session-id"));  // stateless: no session to keep
  auto j = r.json();
  EXPECT_EQ(j["jsonrpc"], "2.0");
  EXPECT_EQ(j["id"], 7);
  EXPECT_EQ(j["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(j["result"]["capabilities"]["tools"]["listChanged"], false);
  EXPECT_EQ(j["result"]["serverInfo"]["name"], "parley");
  EXPECT_TRUE(j["result"]["serverInfo"]["version"].is_string());

  params["protocolVersion"] = "2025-03-26";
  EXPECT_EQ(rpc(c.key, "initialize", params).json()["result"]["protocolVersion"], "2025-03-26");
  params["protocolVersion"] = "2024-01-01";  // unknown: the server offers its own
  EXPECT_EQ(rpc(c.key, "initialize", params).json()["result"]["protocolVersion"], "2025-06-18");
}

TEST_F(Mcp, NotificationsAndResponsesAreAcceptedWithNoBody) {
  auto c = chat_setup(s());
  auto r = post_raw(c.key, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(r.body, "");
  r = post_raw(c.key, R"({"jsonrpc":"2.0","id":"s1","result":{}})");
  EXPECT_EQ(r.status, 202) << r.body;
}

TEST_F(Mcp, PingAnswersAnEmptyResultWithAStringId) {
  auto c = chat_setup(s());
  auto r = post_raw(c.key, R"({"jsonrpc":"2.0","id":"p-1","method":"ping"})",
                    {"MCP-Protocol-Version: 2025-06-18"});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["id"], "p-1");
  EXPECT_EQ(r.json()["result"], Json::object());
}

TEST_F(Mcp, BadMessagesGetJsonRpcErrors) {
  auto c = chat_setup(s());
  auto parse = post_raw(c.key, "{not json");
  EXPECT_EQ(parse.status, 400);
  EXPECT_EQ(parse.json()["error"]["code"], -32700);
  EXPECT_TRUE(parse.json()["id"].is_null());

  auto batch = post_raw(c.key, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_EQ(batch.status, 400);
  EXPECT_EQ(batch.json()["error"]["code"], -32600);
  EXPECT_NE(batch.json()["error"]["message"].get<std::string>().find("Batches"), std::string::npos);

  auto version = post_raw(c.key, R"({"id":1,"method":"ping"})");
  EXPECT_EQ(version.status, 400);
  EXPECT_EQ(version.json()["error"]["code"], -32600);
  EXPECT_EQ(version.json()["id"], 1);
  EXPECT_NE(version.json()["error"]["message"].get<std::string>().find("'jsonrpc'"),
            std::string::npos);

  auto bad_id = post_raw(c.key, R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})");
  EXPECT_EQ(bad_id.status, 400);
  EXPECT_NE(bad_id.json()["error"]["message"].get<std::string>().find("'id'"), std::string::npos);

  auto no_method = post_raw(c.key, R"({"jsonrpc":"2.0","id":1})");
  EXPECT_EQ(no_method.status, 400);
  EXPECT_NE(no_method.json()["error"]["message"].get<std::string>().find("'method'"),
            std::string::npos);

  auto unknown = rpc(c.key, "resources/list", Json::object());
  EXPECT_EQ(unknown.status, 200);
  EXPECT_EQ(unknown.json()["error"]["code"], -32601);
  EXPECT_NE(unknown.json()["error"]["message"].get<std::string>().find("resources/list"),
            std::string::npos);
}

TEST_F(Mcp, InvalidParamsNameTheField) {
  auto c = chat_setup(s());
  auto message = [](const HttpResponse& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["error"]["code"], -32602) << r.body;
    return r.json()["error"]["message"].get<std::string>();
  };
  EXPECT_NE(message(rpc(c.key, "initialize", Json::object())).find("'params.protocolVersion'"),
            std::string::npos);
  EXPECT_NE(message(rpc(c.key, "tools/call", Json::object())).find("'params.name'"),
            std::string::npos);
  EXPECT_NE(message(rpc(c.key, "tools/call", {{"name", "list_agents"}, {"arguments", 3}}))
                .find("'params.arguments'"),
            std::string::npos);
  EXPECT_NE(message(rpc(c.key, "tools/call", {{"name", "no_such_tool"}})).find("no_such_tool"),
            std::string::npos);
  EXPECT_NE(message(rpc(c.key, "tools/list", Json::array())).find("'params'"), std::string::npos);
}

TEST_F(Mcp, TransportRefusals) {
  auto c = chat_setup(s());
  auto version = rpc(c.key, "ping", Json::object(), {"MCP-Protocol-Version: 1999-01-01"});
  EXPECT_EQ(version.status, 400);
  EXPECT_NE(version.json()["error"]["message"].get<std::string>().find("MCP-Protocol-Version"),
            std::string::npos);

  HttpRequest text;
  text.method = "POST";
  text.path = "/mcp";
  text.body = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  text.json_body = false;
  text.headers = {"Authorization: Bearer " + c.key, "Content-Type: text/plain"};
  EXPECT_EQ(s().request(text).status, 415);
  text.headers = {"Authorization: Bearer " + c.key, "Content-Type: application/json",
                  "Accept: text/html"};
  text.json_body = false;
  EXPECT_EQ(s().request(text).status, 406);

  // No stream of the server's own and no session: GET and DELETE are not offered.
  for (const char* method : {"GET", "DELETE"}) {
    HttpRequest req;
    req.method = method;
    req.path = "/mcp";
    req.headers = {"Authorization: Bearer " + c.key};
    auto r = s().request(req);
    EXPECT_EQ(r.status, 405) << method;
    EXPECT_EQ(r.header("allow"), "POST") << method;
  }
}

TEST_F(Mcp, AKeyIsRequired) {
  auto none = post_raw("", R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.header("www-authenticate"), "Bearer");
  auto unknown =
      post_raw("svc_live_" + std::string(32, 'a'), R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(unknown.error_code(), "unauthorized");
}

TEST_F(Mcp, ToolsAreListedByTheKeysScopes) {
  auto account = s().create_account();
  s().create_agent(account);
  auto all = tool_names(s().create_key(account));
  EXPECT_EQ(all, (std::vector<std::string>{"list_agents", "ask_agent", "search_knowledge",
                                           "list_conversations", "get_conversation", "list_leads",
                                           "find_contact", "upsert_contact"}));
  EXPECT_EQ(tool_names(s().create_key(account, "chat")), std::vector<std::string>{"ask_agent"});
  EXPECT_EQ(tool_names(s().create_key(account, "agents:read,leads:read")),
            (std::vector<std::string>{"list_agents", "list_leads", "find_contact"}));
  EXPECT_EQ(tool_names(s().create_key(account, "webhooks:write")), std::vector<std::string>{});

  const Json listed = rpc(s().create_key(account), "tools/list", Json::object()).json();
  ASSERT_EQ(listed["result"]["tools"].size(), 8u);
  for (const auto& t : listed["result"]["tools"]) {
    EXPECT_EQ(t["inputSchema"]["type"], "object") << t["name"];
    EXPECT_EQ(t["outputSchema"]["type"], "object") << t["name"];
    EXPECT_TRUE(t["description"].is_string()) << t["name"];
  }
}

TEST_F(Mcp, AToolOutsideTheKeysScopesIsAToolError) {
  auto account = s().create_account();
  auto agent = s().create_agent(account);
  auto key = s().create_key(account, "agents:read");
  auto refused = call(key, "ask_agent", {{"agentId", agent}, {"message", "hi"}});
  auto text = error_text(refused);
  EXPECT_NE(text.find("'chat' scope"), std::string::npos) << text;
  EXPECT_EQ(refused["_meta"]["parley/error"]["code"], "insufficient_scope");
}

TEST_F(Mcp, ListAgentsGivesTheAccountsAgents) {
  auto c = chat_setup(s());
  s().create_agent(s().create_account());  // another account's
  auto data = structured(call(c.key, "list_agents", Json::object()))["data"];
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0]["id"], c.agent);
  EXPECT_EQ(data[0]["status"], "untrained");
  EXPECT_NE(error_text(call(c.key, "list_agents", {{"extra", 1}})).find("'extra'"),
            std::string::npos);
}

TEST_F(Mcp, AskAgentIsAChatTurnThatContinuesItsConversation) {
  auto c = chat_setup(s(), R"({"showSources": true})");
  add_text(c, "Returns policy",
           "Returns are accepted within 30 days of delivery. Refunds go back to the original "
           "payment method.");
  auto first =
      structured(call(c.key, "ask_agent",
                      {{"agentId", c.agent}, {"message", "How many days do I have for returns?"}}));
  EXPECT_NE(first["reply"].get<std::string>().find("30 days"), std::string::npos) << first.dump();
  ASSERT_EQ(first["sources"].size(), 1u) << first.dump();
  EXPECT_EQ(first["sources"][0]["title"], "Returns policy");
  EXPECT_TRUE(first["sources"][0]["url"].is_null());  // a text source has no address
  auto conversation = first["conversationId"].get<std::string>();
  auto second = structured(
      call(c.key, "ask_agent",
           {{"agentId", c.agent}, {"message", "And refunds?"}, {"conversationId", conversation}}));
  EXPECT_EQ(second["conversationId"], conversation);

  auto got =
      structured(call(c.key, "get_conversation", {{"conversationId", conversation}}))["data"];
  EXPECT_EQ(got["channel"], "api");
  ASSERT_EQ(got["messages"].size(), 4u);
  EXPECT_EQ(got["messages"][0]["content"], "How many days do I have for returns?");
  EXPECT_EQ(got["messages"][1]["role"], "assistant");

  auto page = structured(call(c.key, "list_conversations", {{"agentId", c.agent}, {"limit", 10}}));
  ASSERT_EQ(page["data"].size(), 1u);
  EXPECT_EQ(page["data"][0]["id"], conversation);
  EXPECT_EQ(page["hasMore"], false);
  EXPECT_TRUE(page["nextCursor"].is_null());
}

TEST_F(Mcp, AskAgentErrorsAreToolErrorsNamingTheField) {
  auto c = chat_setup(s());
  EXPECT_NE(error_text(call(c.key, "ask_agent", {{"agentId", c.agent}})).find("'message'"),
            std::string::npos);
  EXPECT_NE(error_text(call(c.key, "ask_agent", {{"agentId", c.agent}, {"message", 5}}))
                .find("'message'"),
            std::string::npos);
  EXPECT_NE(error_text(call(c.key, "ask_agent", {{"agentId", c.agent}, {"message", "  "}}))
                .find("'message'"),
            std::string::npos);
  auto theirs = s().create_agent(s().create_account());
  auto refused = call(c.key, "ask_agent", {{"agentId", theirs}, {"message", "hi"}});
  auto text = error_text(refused);
  EXPECT_NE(text.find("No agent " + theirs), std::string::npos) << text;
  EXPECT_EQ(refused["_meta"]["parley/error"], (Json{{"code", "not_found"}}));
  text = error_text(call(c.key, "get_conversation", {{"conversationId", "cnv_nosuch"}}));
  EXPECT_NE(text.find("No conversation cnv_nosuch"), std::string::npos) << text;
  // Nothing was stored for the refused turns.
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 0);
}

TEST_F(Mcp, SearchKnowledgeGivesPassagesWithTitleAndAddress) {
  auto c = chat_setup(s());
  add_text(c, "Shipping",
           "We ship to forty countries. Parcels abroad arrive within ten working days.");
  auto data =
      structured(call(c.key, "search_knowledge",
                      {{"agentId", c.agent}, {"query", "parcels abroad"}, {"limit", 3}}))["data"];
  ASSERT_GE(data.size(), 1u);
  EXPECT_EQ(data[0]["title"], "Shipping");
  EXPECT_TRUE(data[0]["url"].is_null());  // a text source has no address
  EXPECT_EQ(data[0]["sourceType"], "text");
  EXPECT_NE(data[0]["text"].get<std::string>().find("ten working days"), std::string::npos);
  // No turn: nothing is stored and no message counted.
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 0);

  EXPECT_NE(error_text(call(c.key, "search_knowledge",
                            {{"agentId", c.agent}, {"query", "x"}, {"limit", 21}}))
                .find("'limit'"),
            std::string::npos);
  EXPECT_NE(error_text(call(c.key, "search_knowledge", {{"agentId", c.agent}})).find("'query'"),
            std::string::npos);
}

TEST_F(Mcp, ContactsAreUpsertedAndFound) {
  auto c = chat_setup(s());
  Json args = {{"agentId", c.agent}, {"email", "Ada@Example.com"}, {"name", "Ada"}};
  auto created = structured(call(c.key, "upsert_contact", args));
  EXPECT_EQ(created["result"], "created");
  EXPECT_EQ(created["data"]["email"], "ada@example.com");
  args["external_id"] = "u-1";
  auto updated = structured(call(c.key, "upsert_contact", args));
  EXPECT_EQ(updated["result"], "updated");
  EXPECT_EQ(updated["data"]["id"], created["data"]["id"]);

  auto found =
      structured(call(c.key, "find_contact", {{"agentId", c.agent}, {"email", "ADA@example.com"}}));
  EXPECT_EQ(found["data"]["id"], created["data"]["id"]);
  EXPECT_EQ(found["data"]["externalId"], "u-1");
  auto none =
      structured(call(c.key, "find_contact", {{"agentId", c.agent}, {"external_id", "nobody"}}));
  EXPECT_TRUE(none["data"].is_null());

  EXPECT_NE(error_text(call(c.key, "find_contact", {{"agentId", c.agent}}))
                .find("'email' or 'external_id'"),
            std::string::npos);
  EXPECT_NE(
      error_text(call(c.key, "upsert_contact", {{"agentId", c.agent}, {"email", "not-an-email"}}))
          .find("'email'"),
      std::string::npos);
  EXPECT_NE(error_text(call(c.key, "upsert_contact", {{"agentId", c.agent}, {"name", "No id"}}))
                .find("'external_id' or 'email'"),
            std::string::npos);
}

TEST_F(Mcp, LeadsArePagedAsTheRestListPagesThem) {
  auto c = chat_setup(s());
  auto page = structured(call(c.key, "list_leads", {{"agentId", c.agent}}));
  EXPECT_EQ(page["data"], Json::array());
  EXPECT_EQ(page["hasMore"], false);
  EXPECT_NE(
      error_text(call(c.key, "list_leads", {{"agentId", c.agent}, {"limit", 0}})).find("'limit'"),
      std::string::npos);
  EXPECT_NE(error_text(call(c.key, "list_leads", {{"agentId", c.agent}, {"cursor", "garbage"}}))
                .find("'cursor'"),
            std::string::npos);
  auto theirs = s().create_agent(s().create_account());
  EXPECT_NE(error_text(call(c.key, "list_leads", {{"agentId", theirs}})).find("No agent " + theirs),
            std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
