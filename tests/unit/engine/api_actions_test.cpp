#include "engine/api_actions.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

constexpr const char* kActionsSettings = R"({"apiActions": [
  {"name": "order_status", "description": "Looks up an order", "method": "get",
   "url": "https://api.example.com/orders/{orderId}",
   "parameters": [{"name": "orderId", "required": true}, {"name": "lang", "description": "Language"}],
   "headers": {"X-Api-Key": "k-123", "Bad\nHeader": "x"}},
  {"name": "create_ticket", "method": "POST", "url": "https://api.example.com/tickets",
   "parameters": [{"name": "subject", "required": true}, {"name": "priority"}]},
  {"name": "bad name!", "url": "https://x.example.com"},
  {"name": "no_url"},
  {"name": "odd_method", "method": "TRACE", "url": "https://x.example.com"}
]})";

TEST(ApiActions, ReadsWellFormedActionsOnly) {
  auto actions = parse_agent_settings(kActionsSettings).api_actions;
  ASSERT_EQ(actions.size(), 2u);
  EXPECT_EQ(actions[0].name, "order_status");
  EXPECT_EQ(actions[0].method, "GET");
  ASSERT_EQ(actions[0].parameters.size(), 2u);
  EXPECT_TRUE(actions[0].parameters[0].required);
  ASSERT_EQ(actions[0].headers.size(), 1u);  // a header with a line break is dropped
  EXPECT_EQ(actions[0].headers[0].first, "X-Api-Key");
  EXPECT_EQ(actions[1].method, "POST");
  EXPECT_TRUE(parse_agent_settings(R"({"clientActions":[{"name":"x","url":"https://x"}]})").api_actions.empty());
}

TEST(ApiActions, ToolDescribesTheParameters) {
  auto tool = api_action_tool(parse_agent_settings(kActionsSettings).api_actions[0]);
  EXPECT_EQ(tool.name, "action_order_status");
  EXPECT_EQ(tool.description, "Looks up an order");
  EXPECT_EQ(tool.parameters_json,
            R"({"type":"object","properties":{"orderId":{"type":"string"},)"
            R"("lang":{"type":"string","description":"Language"}},"required":["orderId"]})");
}

TEST(ApiActions, PlaceholdersAreEncodedAndTheRestGoesInQueryOrBody) {
  auto actions = parse_agent_settings(kActionsSettings).api_actions;
  auto get = build_action_request(actions[0],
                                  R"({"orderId": "A 1/../x", "lang": "fr", "extra": "dropped"})");
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->url, "https://api.example.com/orders/A%201%2F..%2Fx?lang=fr");
  EXPECT_EQ(get->body, "");
  auto post = build_action_request(actions[1], R"({"subject": "Broken", "priority": 2})");
  ASSERT_TRUE(post.ok());
  EXPECT_EQ(post->url, "https://api.example.com/tickets");
  EXPECT_EQ(post->body, R"({"subject":"Broken","priority":2})");
}

TEST(ApiActions, AMissingRequiredParameterIsNamed) {
  auto r = build_action_request(parse_agent_settings(kActionsSettings).api_actions[0],
                                R"({"lang": "fr"})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "'orderId' is required.");
}

TEST(ApiActions, ParametersNeverChooseTheHost) {
  auto actions = parse_agent_settings(R"({"apiActions": [
    {"name": "steerable", "url": "https://{host}/x", "parameters": [{"name": "host"}]},
    {"name": "port", "url": "https://api.example.com:{port}/x", "parameters": [{"name": "port"}]}]})").api_actions;
  ASSERT_EQ(actions.size(), 2u);
  for (const auto& a : actions) {
    auto r = build_action_request(a, R"({"host": "evil.example", "port": "81"})");
    ASSERT_FALSE(r.ok()) << a.name;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidRequest);
  }
}

// customerId=".." once sent /v1/customers/{customerId}/orders to /v1/orders with the tenant's key.
TEST(ApiActions, DotSegmentArgumentsAreRefusedInEveryCase) {
  auto action = parse_agent_settings(R"({"apiActions": [{"name": "orders",
    "url": "https://api.example.com/v1/customers/{customerId}/orders",
    "parameters": [{"name": "customerId", "required": true}]}]})")
                    .api_actions.at(0);
  for (const char* value : {"..", ".", "%2e%2e", "%2E%2e", ".%2E", "%2e", "%252e%252E"}) {
    std::string args = std::string(R"({"customerId": ")") + value + "\"}";
    auto r = build_action_request(action, args);
    ASSERT_FALSE(r.ok()) << value;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidRequest) << value;
    EXPECT_EQ(r.error().message, "'customerId' may not be '.' or '..'.") << value;
  }
  // Dots inside a value are data, encoded or not.
  auto ok = build_action_request(action, R"({"customerId": "...a.b"})");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->url, "https://api.example.com/v1/customers/...a.b/orders");
}

TEST(ApiActions, ArgumentsThatJoinIntoADotSegmentAreRefused) {
  auto action = parse_agent_settings(R"({"apiActions": [{"name": "pair",
    "url": "https://api.example.com/v1/{a}{b}/x?q={q}",
    "parameters": [{"name": "a"}, {"name": "b"}, {"name": "q"}]}]})")
                    .api_actions.at(0);
  // Neither "%2" nor "e" is a dot segment; side by side they are "%252e", once decoded "%2e".
  auto joined = build_action_request(action, R"({"a": "%2", "b": "e"})");
  ASSERT_FALSE(joined.ok());
  EXPECT_EQ(joined.error().message, "An action's path may not hold a '.' or '..' segment.");
  // In the query a dot is a value like any other.
  auto query = build_action_request(action, R"({"a": "x", "b": "y", "q": ".."})");
  ASSERT_TRUE(query.ok()) << query.error().message;
  EXPECT_EQ(query->url, "https://api.example.com/v1/xy/x?q=..");
}

TEST(ApiActions, EverythingOutsideTheUnreservedSetIsEncoded) {
  auto action = parse_agent_settings(R"({"apiActions": [{"name": "orders",
    "url": "https://api.example.com/v1/customers/{customerId}",
    "parameters": [{"name": "customerId", "required": true}]}]})")
                    .api_actions.at(0);
  auto r = build_action_request(action, R"({"customerId": "a/b?c#d%e f+g;h=i&j@k:l\u00e9~._-Z9"})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->url,
            "https://api.example.com/v1/customers/"
            "a%2Fb%3Fc%23d%25e%20f%2Bg%3Bh%3Di%26j%40k%3Al%C3%A9~._-Z9");
}

}  // namespace
}  // namespace parley
