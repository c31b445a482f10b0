#include <gtest/gtest.h>

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

}  // namespace
}  // namespace parley
