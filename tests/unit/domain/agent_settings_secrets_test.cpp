#include <gtest/gtest.h>

#include "core/json.h"
#include "domain/agent_settings.h"

namespace parley {
namespace {

TEST(AgentSettingsSecrets, TheProviderKeyIsRedactedWhenShown) {
  EXPECT_EQ(redact_agent_settings(R"({"engine":"openai","llm":{"model":"m","apiKey":"sk-1"}})"),
            R"({"engine":"openai","llm":{"model":"m","apiKey":"********"}})");
  EXPECT_EQ(redact_agent_settings(R"({"llm":{"model":"m"}})"), R"({"llm":{"model":"m"}})");
  EXPECT_EQ(redact_agent_settings(""), "{}");
}

TEST(AgentSettingsSecrets, TheRedactedValueWrittenBackKeepsTheStoredKey) {
  auto kept = merge_agent_settings(R"({"llm":{"model":"m","apiKey":"sk-1"}})",
                                   R"({"llm":{"model":"m2","apiKey":"********"}})");
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(*kept, R"({"llm":{"model":"m2","apiKey":"sk-1"}})");
  auto replaced = merge_agent_settings(R"({"llm":{"apiKey":"sk-1"}})", R"({"llm":{"apiKey":"sk-2"}})");
  EXPECT_EQ(*replaced, R"({"llm":{"apiKey":"sk-2"}})");
  auto none = merge_agent_settings("{}", R"({"llm":{"apiKey":"********"}})");
  EXPECT_EQ(*none, R"({"llm":{}})");
}

TEST(AgentSettingsSecrets, ApiActionHeaderValuesAreRedactedAndKeptOnWriteBack) {
  auto stored = merge_agent_settings(
      "{}", R"({"apiActions": [{"name": "orders", "url": "https://api.example.com/o/{id}",
                                "headers": {"Authorization": "Bearer s3cret", "X-Team": "blue"}}]})");
  ASSERT_TRUE(stored.ok());
  std::string shown = redact_agent_settings(*stored);
  EXPECT_EQ(shown.find("s3cret"), std::string::npos);
  EXPECT_EQ(shown.find("blue"), std::string::npos);
  EXPECT_NE(shown.find("********"), std::string::npos);
  // The object read and written back keeps the stored values; a changed value replaces one.
  auto doc = parse_json_object(shown);
  ASSERT_TRUE(doc.ok());
  (*doc)["apiActions"][0]["headers"]["X-Team"].SetString("red");
  auto update = std::string(R"({"apiActions": )") + to_json((*doc)["apiActions"]) + "}";
  auto merged = merge_agent_settings(*stored, update);
  ASSERT_TRUE(merged.ok());
  EXPECT_NE(merged->find("Bearer s3cret"), std::string::npos);
  EXPECT_NE(merged->find("red"), std::string::npos);
  EXPECT_EQ(merged->find("********"), std::string::npos);
}


TEST(AgentSettingsSecrets, TheRedactedKeyDoesNotFollowTheProviderToAnotherHost) {
  std::string stored = R"({"llm":{"baseUrl":"https://api.provider.example/v1","model":"m","apiKey":"sk-owner"}})";
  auto moved = merge_agent_settings(stored, R"({"llm":{"baseUrl":"https://editor.example/v1","apiKey":"********"}})");
  ASSERT_FALSE(moved.ok());
  EXPECT_EQ(moved.error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(moved.error().message,
            "'llm.apiKey' must be given again when 'llm.baseUrl' changes: a stored secret is only "
            "kept for "
            "the address it was set for.");
  // Dropping baseUrl sends the key to the server's default provider: another host too.
  EXPECT_FALSE(merge_agent_settings(stored, R"({"llm":{"model":"m","apiKey":"********"}})").ok());
  // Another port or scheme is another destination.
  EXPECT_FALSE(
      merge_agent_settings(stored, R"({"llm":{"baseUrl":"https://api.provider.example:8443/v1","apiKey":"********"}})")
          .ok());
  EXPECT_FALSE(
      merge_agent_settings(stored, R"({"llm":{"baseUrl":"http://api.provider.example/v1","apiKey":"********"}})").ok());
  // Another path of the same host is another destination (a gateway serves many tenants' APIs).
  EXPECT_FALSE(
      merge_agent_settings(
          stored, R"({"llm":{"baseUrl":"https://api.provider.example/v2","apiKey":"********"}})")
          .ok());
  EXPECT_FALSE(
      merge_agent_settings(
          stored, R"({"llm":{"baseUrl":"https://api.provider.example/v1/","apiKey":"********"}})")
          .ok());
  EXPECT_FALSE(
      merge_agent_settings(
          stored,
          R"({"llm":{"baseUrl":"https://api.provider.example/v1?to=x","apiKey":"********"}})")
          .ok());
  // The same address (case of scheme and host, explicit default port) keeps it; a new key may
  // always be given.
  auto same = merge_agent_settings(
      stored, R"({"llm":{"baseUrl":"HTTPS://API.provider.example:443/v1","apiKey":"********"}})");
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_NE(same->find("sk-owner"), std::string::npos);
  auto fresh = merge_agent_settings(stored, R"({"llm":{"baseUrl":"https://editor.example/v1","apiKey":"sk-new"}})");
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(fresh->find("sk-owner"), std::string::npos);
}

TEST(AgentSettingsSecrets, RedactedActionHeadersDoNotFollowTheActionToAnotherHost) {
  std::string stored = R"({"apiActions":[{"name":"orders","url":"https://api.shop.example/o/{id}",
                                          "headers":{"Authorization":"Bearer s3cret"}}]})";
  auto moved = merge_agent_settings(stored, R"({"apiActions":[{"name":"orders","url":"https://editor.example/o/{id}",
                                                               "headers":{"Authorization":"********"}}]})");
  ASSERT_FALSE(moved.ok());
  EXPECT_EQ(moved.error().message,
            "'apiActions[0].headers.Authorization' must be given again when 'apiActions[0].url' "
            "changes: a "
            "stored secret is only kept for the address it was set for.");
  auto user_part = merge_agent_settings(
      stored, R"({"apiActions":[{"name":"orders","url":"https://api.shop.example@editor.example/o/{id}",
                                 "headers":{"Authorization":"********"}}]})");
  EXPECT_FALSE(user_part.ok());
  // Another path of the same gateway, or another method, asks for the secret again.
  auto other_path = merge_agent_settings(
      stored, R"({"apiActions":[{"name":"orders","url":"https://api.shop.example/admin/{id}",
                                 "headers":{"Authorization":"********"}}]})");
  ASSERT_FALSE(other_path.ok());
  EXPECT_NE(other_path.error().message.find("'apiActions[0].url' changes"), std::string::npos);
  auto other_method = merge_agent_settings(
      stored,
      R"({"apiActions":[{"name":"orders","url":"https://api.shop.example/o/{id}","method":"DELETE",
                                 "headers":{"Authorization":"********"}}]})");
  ASSERT_FALSE(other_method.ok());
  EXPECT_EQ(other_method.error().message,
            "'apiActions[0].headers.Authorization' must be given again when 'apiActions[0].method' "
            "changes: a "
            "stored secret is only kept for the request it was set for.");
  auto same = merge_agent_settings(
      stored, R"({"apiActions":[{"name":"orders","url":"HTTPS://api.shop.example:443/o/{id}",
                                                              "method":"get","headers":{"Authorization":"********"}}]})");
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_NE(same->find("Bearer s3cret"), std::string::npos);
}

// The marker stands for a stored value; where there is none (a new action, a new header, an action
// of another name) it would go out as the header's value, so it is refused naming the header.
TEST(AgentSettingsSecrets, TheMarkerWithNoStoredHeaderToKeepIsRefused) {
  std::string stored = R"({"apiActions":[{"name":"orders","url":"https://api.shop.example/o/{id}",
                                          "headers":{"Authorization":"Bearer s3cret"}}]})";
  auto other_action =
      merge_agent_settings(stored, R"({"apiActions":[{"name":"other","url":"https://evil.example/x",
                                 "headers":{"Authorization":"********"}}]})");
  ASSERT_FALSE(other_action.ok());
  EXPECT_EQ(other_action.error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(other_action.error().message,
            "'apiActions[0].headers.Authorization' has no stored value to keep: give the secret.");
  auto new_header = merge_agent_settings(
      stored, R"({"apiActions":[{"name":"orders","url":"https://api.shop.example/o/{id}",
                                 "headers":{"Authorization":"********","X-Key":"********"}}]})");
  ASSERT_FALSE(new_header.ok());
  EXPECT_EQ(new_header.error().message,
            "'apiActions[0].headers.X-Key' has no stored value to keep: give the secret.");
  auto none_stored = merge_agent_settings(
      "{}", R"({"apiActions":[{"name":"orders","url":"https://api.shop.example/o/{id}",
                               "headers":{"Authorization":"********"}}]})");
  EXPECT_FALSE(none_stored.ok());
}

}  // namespace
}  // namespace parley
