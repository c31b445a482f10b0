// Which provider "Test connection" tests: unsaved values over the stored ones, and the stored key
// kept to the stored address.
#include "domain/llm_check.h"

#include <gtest/gtest.h>

#include "domain/agent_settings.h"

namespace parley {
namespace {

LlmSettings stored() {
  LlmSettings s;
  s.base_url = "https://a.example/v1";
  s.model = "m1";
  s.api_key = "sk-stored";
  return s;
}

TEST(LlmCheckEdits, NoEditsTestTheStoredSettings) {
  auto s = apply_llm_check_edits(stored(), {});
  EXPECT_EQ(s.base_url, "https://a.example/v1");
  EXPECT_EQ(s.model, "m1");
  EXPECT_EQ(s.api_key, "sk-stored");
}

TEST(LlmCheckEdits, TheStoredKeyGoesOnlyToTheStoredAddress) {
  LlmCheckEdits same{std::string("https://a.example/v1"), std::string("m2"),
                     std::string(kRedactedSecret)};
  EXPECT_EQ(apply_llm_check_edits(stored(), same).api_key, "sk-stored");
  LlmCheckEdits moved{std::string("https://b.example/v1"), std::nullopt,
                      std::string(kRedactedSecret)};
  EXPECT_EQ(apply_llm_check_edits(stored(), moved).api_key, "");
  LlmCheckEdits moved_silently{std::string("https://b.example/v1"), std::nullopt, std::nullopt};
  EXPECT_EQ(apply_llm_check_edits(stored(), moved_silently).api_key, "");
  LlmCheckEdits typed{std::string("https://b.example/v1"), std::nullopt, std::string("sk-typed")};
  EXPECT_EQ(apply_llm_check_edits(stored(), typed).api_key, "sk-typed");
}

TEST(LlmCheckEdits, EmptyValuesClearSoTheServersDefaultApplies) {
  LlmCheckEdits cleared{std::string(), std::string(), std::string()};
  auto s = apply_llm_check_edits(stored(), cleared);
  EXPECT_EQ(s.base_url, "");
  EXPECT_EQ(s.model, "");
  EXPECT_EQ(s.api_key, "");
}

}  // namespace
}  // namespace parley
