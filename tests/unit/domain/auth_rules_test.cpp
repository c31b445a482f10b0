#include <gtest/gtest.h>

#include "api/key_cache.h"
#include "model/plans.h"
#include "model/scopes.h"

namespace parley {
namespace {

TEST(KeyFormat, AcceptsOnlyLivePrefixAndThirtyTwoAlphanumerics) {
  EXPECT_TRUE(is_well_formed_key("svc_live_" + std::string(32, 'a')));
  EXPECT_TRUE(is_well_formed_key("svc_live_0123456789abcdefABCDEF0123456789"));
  EXPECT_FALSE(is_well_formed_key("svc_live_" + std::string(31, 'a')));
  EXPECT_FALSE(is_well_formed_key("svc_live_" + std::string(33, 'a')));
  EXPECT_FALSE(is_well_formed_key("svc_test_" + std::string(32, 'a')));
  EXPECT_FALSE(is_well_formed_key("svc_live_" + std::string(31, 'a') + "-"));
  EXPECT_FALSE(is_well_formed_key(""));
}

TEST(Scopes, ParseListsAndNames) {
  std::string unknown;
  auto m = parse_scope_list("agents:read, chat", &unknown);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m, mask(Scope::kAgentsRead) | mask(Scope::kChat));
  EXPECT_EQ(scope_list(*m), "agents:read,chat");
  EXPECT_FALSE(parse_scope_list("agents:read,agents:write", &unknown).has_value());
  EXPECT_EQ(unknown, "agents:write");
  EXPECT_EQ(all_scope_names().size(), 8u);
}

TEST(Scopes, AllScopesKeyAllowsEverything) {
  KeyEntry all;
  all.all_scopes = true;
  KeyEntry some;
  some.scopes = mask(Scope::kChat);
  for (auto name : all_scope_names()) EXPECT_TRUE(all.allows(*parse_scope(name)));
  EXPECT_TRUE(some.allows(Scope::kChat));
  EXPECT_FALSE(some.allows(Scope::kWebhooksWrite));
}

TEST(Plans, FreeHasNoApiAndOverridesApply) {
  EXPECT_FALSE(default_limits(Plan::kFree).api_access);
  EXPECT_TRUE(default_limits(Plan::kStarter).api_access);
  auto limits = effective_limits(Plan::kStarter, parse_limit_overrides(R"({"trainingCharacters": 50, "contactsPerAgent": 2})"));
  EXPECT_EQ(limits.training_characters, 50);
  EXPECT_EQ(limits.contacts_per_agent, 2);
  EXPECT_EQ(limits.messages_per_month, 4000);
  EXPECT_EQ(effective_limits(Plan::kPro, parse_limit_overrides("not json")).messages_per_month, 15000);
  EXPECT_EQ(parse_plan("enterprise"), Plan::kEnterprise);
  EXPECT_FALSE(parse_plan("gold").has_value());
}

}  // namespace
}  // namespace parley
