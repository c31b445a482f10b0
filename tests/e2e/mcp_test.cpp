// POST /mcp, the MCP server's protocol: the Streamable HTTP transport's rules (JSON answers, 202
// for notifications, 405 for GET and DELETE, the protocol version header), JSON-RPC's errors, the
// key (401) and the tools listed by the key's scopes. One server for the suite.
#include "mcp_support.h"

namespace parley::e2e {
namespace {

class Mcp : public McpTest {};

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
  text.headers = {"Authorization: Bearer " + c.key,
                  "Content-Type: Application/JSON; charset=utf-8"};
  EXPECT_EQ(s().request(text).status, 200);  // media types are case-insensitive
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

}  // namespace
}  // namespace parley::e2e
