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

}  // namespace
}  // namespace parley
