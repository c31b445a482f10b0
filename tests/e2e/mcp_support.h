// Shared by the MCP end-to-end suites (mcp_test.cpp: the protocol; mcp_tools_test.cpp: the
// tools): a fixture whose suite starts one server, and helpers that post JSON-RPC messages to
// /mcp and read a tools/call result.
#pragma once

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "chat_support.h"

namespace parley::e2e {

class McpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  inline static Server* server_ = nullptr;
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

}  // namespace parley::e2e
