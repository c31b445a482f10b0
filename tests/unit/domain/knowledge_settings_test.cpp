// The knowledge settings on write: `language` among the analyser's codes, `answerThreshold` a
// number from 0 to 1, `synonyms` at most 500 groups of 2 to 20 terms of at most 100 characters
// (characters, not bytes); each refusal is 400 naming the setting, and a refused update changes
// nothing.
#include <gtest/gtest.h>

#include "domain/agent_settings.h"

namespace parley {
namespace {

std::string groups(size_t n) {
  std::string out = "[";
  for (size_t i = 0; i < n; ++i) out += std::string(i ? "," : "") + "[\"a" + std::to_string(i) + "\",\"b\"]";
  return out + "]";
}

TEST(KnowledgeSettings, SynonymLimitsAreCountedAndNamed) {
  EXPECT_TRUE(merge_agent_settings("{}", R"({"synonyms":)" + groups(500) + "}").ok());
  auto many = merge_agent_settings("{}", R"({"synonyms":)" + groups(501) + "}");
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(many.error().message.find("'synonyms'"), std::string::npos);

  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "é";  // 100 characters, 200 bytes
  EXPECT_TRUE(merge_agent_settings("{}", R"({"synonyms":[["x",")" + accents + R"("]]})").ok());
  auto long_term = merge_agent_settings("{}", R"({"synonyms":[["x",")" + accents + R"(é"]]})");
  ASSERT_FALSE(long_term.ok());
  EXPECT_NE(long_term.error().message.find("'synonyms[0][1]'"), std::string::npos);
}

TEST(KnowledgeSettings, LanguageAndThresholdAreChecked) {
  EXPECT_TRUE(merge_agent_settings("{}", R"({"language":"ja","answerThreshold":0})").ok());
  auto language = merge_agent_settings(R"({"language":"en"})", R"({"language":"english"})");
  ASSERT_FALSE(language.ok());
  EXPECT_NE(language.error().message.find("'language'"), std::string::npos);
  auto threshold = merge_agent_settings("{}", R"({"answerThreshold":-0.1})");
  ASSERT_FALSE(threshold.ok());
  EXPECT_NE(threshold.error().message.find("'answerThreshold'"), std::string::npos);
}

}  // namespace
}  // namespace parley
