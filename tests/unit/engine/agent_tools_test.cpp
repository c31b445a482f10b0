#include "engine/agent_tools.h"

#include <gtest/gtest.h>

#include "core/json.h"
#include "engine/completion_stream.h"
#include "engine/mcp_client.h"
#include "engine/openai_client.h"
#include "engine/web_search.h"

namespace parley {
namespace {

TEST(McpResult, TextContentIsJoinedAndStructuredContentKept) {
  auto r = mcp_result_text(
      R"({"content":[{"type":"text","text":"Order 42"},{"type":"image","data":"x"},{"type":"text","text":"has shipped."}],
          "structuredContent":{"status":"shipped"}})",
      1024);
  EXPECT_FALSE(r.is_error);
  EXPECT_EQ(r.text,
            R"({"content":"Order 42\nhas shipped.","structuredContent":{"status":"shipped"}})");
}

TEST(McpResult, AnErrorResultIsAnError) {
  auto r =
      mcp_result_text(R"({"content":[{"type":"text","text":"Closed."}],"isError":true})", 1024);
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.text, R"({"error":"Closed."})");
  EXPECT_TRUE(mcp_result_text("not json", 1024).is_error);
}

TEST(McpResult, ALongResultIsCutAtACharacterBoundary) {
  std::string text(30, 'a');
  text += "é";  // two bytes across the cut
  auto r = mcp_result_text(
      R"({"content":[{"type":"text","text":")" + text + R"("}],"structuredContent":{"big":true}})",
      31);
  auto doc = parse_json_object(r.text);
  ASSERT_TRUE(doc.ok()) << r.text;
  EXPECT_EQ(std::string((*doc)["content"].GetString()), std::string(30, 'a'));
  EXPECT_TRUE((*doc)["truncated"].GetBool());
  EXPECT_FALSE(doc->HasMember("structuredContent"));  // only when it fits whole
}

TEST(McpToolNames, ServerAndToolMakeAFunctionName) {
  EXPECT_EQ(mcp_function_name("shop", "lookup_order"), "mcp_shop_lookup_order");
  EXPECT_EQ(mcp_function_name("shop", "orders.find"), "mcp_shop_orders_find");
  EXPECT_EQ(mcp_function_name("s", std::string(80, 'x')).size(), 64u);
}

TEST(McpSessions, KeptUntilTheyExpireAndDroppedOnRequest) {
  McpSessionCache cache;
  cache.put("k", McpSession{"sid", "2025-06-18", {{"t", "", "{}"}}}, 1000, 500);
  ASSERT_TRUE(cache.find("k", 1499).has_value());
  EXPECT_EQ(cache.find("k", 1499)->tools.size(), 1u);
  EXPECT_FALSE(cache.find("k", 1500).has_value());
  cache.put("k", McpSession{}, 2000, 500);
  cache.drop("k");
  EXPECT_FALSE(cache.find("k", 2001).has_value());
}

TEST(WebSearch, TheProvidersAddresses) {
  WebSearchCall call;
  call.url = "https://searx.example.org/";
  call.query = "tyre pressure & more";
  EXPECT_EQ(web_search_url(call),
            "https://searx.example.org/search?q=tyre%20pressure%20%26%20more&format=json");
  call.url = "https://searx.example.org/search";
  EXPECT_EQ(web_search_url(call),
            "https://searx.example.org/search?q=tyre%20pressure%20%26%20more&format=json");
  call.provider = "brave";
  call.url = "";
  call.max_results = 2;
  EXPECT_EQ(
      web_search_url(call),
      "https://api.search.brave.com/res/v1/web/search?q=tyre%20pressure%20%26%20more&count=2");
}

TEST(WebSearch, ResultsAreReadUpToTheMaximumSkippingWhatIsNoPage) {
  auto pages = parse_search_results("searxng", R"json({"results":[
      {"url":"javascript:alert(1)","title":"x","content":"x"},
      {"url":"https://a.example/1","title":"A","content":"Snippet A"},
      {"url":"https://a.example/1","title":"A again","content":"dup"},
      {"url":"https://b.example/2","title":"B","content":"Snippet B"},
      {"url":"https://c.example/3","title":"C","content":"Snippet C"}]})json",
                                    2);
  ASSERT_TRUE(pages.ok());
  ASSERT_EQ(pages->size(), 2u);
  EXPECT_EQ((*pages)[0].url, "https://a.example/1");
  EXPECT_EQ((*pages)[0].text, "Snippet A");
  EXPECT_EQ((*pages)[1].title, "B");
  auto brave = parse_search_results(
      "brave",
      R"({"web":{"results":[{"url":"https://d.example","title":"D","description":"Snippet D"}]}})",
      3);
  ASSERT_TRUE(brave.ok());
  ASSERT_EQ(brave->size(), 1u);
  EXPECT_EQ((*brave)[0].text, "Snippet D");
  EXPECT_FALSE(parse_search_results("searxng", "<html>", 3).ok());
  EXPECT_EQ(web_results_json({{"T", "https://t.example", "text", true}}),
            R"({"results":[{"title":"T","url":"https://t.example","text":"text"}]})");
}

TEST(CompletionJson, AWholeChatCompletionGivesItsTextAndToolCalls) {
  std::string seen;
  CompletionAssembler a([&](std::string_view piece) {
    seen += piece;
    return true;
  });
  ASSERT_TRUE(
      a.apply_whole(
           R"({"object":"chat.completion","choices":[{"index":0,"finish_reason":"tool_calls",
      "message":{"role":"assistant","content":"Looking.","tool_calls":[{"id":"c1","type":"function",
      "function":{"name":"web_search","arguments":"{\"query\":\"x\"}"}}]}}]})")
          .ok());
  EXPECT_TRUE(a.done());
  Completion c = a.take();
  EXPECT_EQ(seen, "Looking.");
  EXPECT_EQ(c.finish_reason, "tool_calls");
  ASSERT_EQ(c.tool_calls.size(), 1u);
  EXPECT_EQ(c.tool_calls[0].id, "c1");
  EXPECT_EQ(c.tool_calls[0].name, "web_search");
  EXPECT_EQ(c.tool_calls[0].arguments, R"({"query":"x"})");
  CompletionAssembler bad([](std::string_view) { return true; });
  EXPECT_FALSE(bad.apply_whole(R"({"choices":[]})").ok());
}

TEST(CompletionRequestBody, NoMoreToolsAsksForAnAnswer) {
  CompletionRequest r;
  r.model = "m";
  r.tools = {{"web_search", "Searches.", R"({"type":"object"})"}};
  EXPECT_EQ(completion_request_body(r).find("tool_choice"), std::string::npos);
  r.no_more_tools = true;
  EXPECT_NE(completion_request_body(r).find(R"("tool_choice":"none")"), std::string::npos);
}

}  // namespace
}  // namespace parley
