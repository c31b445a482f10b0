// The agent setting `knowledgeRefresh`: off, daily or weekly, refused otherwise naming it, and
// read as a type (off when absent or unknown).
#include <gtest/gtest.h>

#include "domain/agent_settings.h"
#include "model/agent_settings.h"

namespace parley {
namespace {

TEST(KnowledgeRefreshSetting, OffDailyOrWeekly) {
  for (std::string value : {"off", "daily", "weekly"}) {
    auto merged = merge_agent_settings("{}", R"({"knowledgeRefresh":")" + value + R"("})");
    ASSERT_TRUE(merged.ok()) << value;
  }
  EXPECT_EQ(parse_agent_settings(R"({"knowledgeRefresh":"daily"})").knowledge.refresh,
            KnowledgeRefresh::kDaily);
  EXPECT_EQ(parse_agent_settings(R"({"knowledgeRefresh":"weekly"})").knowledge.refresh,
            KnowledgeRefresh::kWeekly);
  EXPECT_EQ(parse_agent_settings("{}").knowledge.refresh, KnowledgeRefresh::kOff);
  EXPECT_EQ(parse_agent_settings(R"({"knowledgeRefresh":"hourly"})").knowledge.refresh,
            KnowledgeRefresh::kOff);
}

TEST(KnowledgeRefreshSetting, AnythingElseIsRefusedNamingIt) {
  auto hourly = merge_agent_settings("{}", R"({"knowledgeRefresh":"hourly"})");
  ASSERT_FALSE(hourly.ok());
  EXPECT_EQ(hourly.error().message, "Setting 'knowledgeRefresh' must be off, daily or weekly.");
  auto number = merge_agent_settings("{}", R"({"knowledgeRefresh":1})");
  ASSERT_FALSE(number.ok());
  EXPECT_EQ(number.error().message, "Setting 'knowledgeRefresh' must be a string.");
  EXPECT_EQ(
      *merge_agent_settings(R"({"knowledgeRefresh":"daily"})", R"({"knowledgeRefresh":null})"),
      "{}");
}

}  // namespace
}  // namespace parley
