// Grouping knowledge gaps by meaning: a question's key is its content lemmas, and two keys mean
// the same when enough of their words match by lemma, stem, synonym or a spelling slip; and the
// outcome a reply is given from its confidence.
#include "domain/gaps.h"

#include <gtest/gtest.h>

#include "engine/reply_engine.h"

namespace parley {
namespace {

bool same(std::string_view a, std::string_view b, const KnowledgeSettings& k = {}) {
  return same_meaning(gap_terms(a, k), gap_terms(b, k), k);
}

TEST(GapTerms, KeepContentLemmasOnceInOrder) {
  const auto day_pass = gap_terms("day pass", {});
  EXPECT_EQ(day_pass.size(), 2u);
  EXPECT_EQ(day_pass[0], "day");
  EXPECT_EQ(gap_terms("How much is a day pass?", {}), day_pass);  // stop words left out
  EXPECT_EQ(gap_terms("Day passes, day PASS", {}), day_pass);     // case, inflection, repeats
  // Only stop words: every word is kept, so the question still has a key.
  EXPECT_FALSE(gap_terms("How much?", {}).empty());
}

TEST(GapTerms, AKeyHoldsTheQuestionsFirstWordsOnly) {
  // A message of thousands of distinct words is compared with hundreds of groups inside its turn's
  // write: its key is its first kGapTermsKept words.
  std::string question;
  for (int i = 0; i < 2000; ++i) question += "w" + std::to_string(i) + "x ";
  const auto terms = gap_terms(question, {});
  ASSERT_EQ(terms.size(), kGapTermsKept);
  EXPECT_EQ(terms.front(), "w0x");
  EXPECT_EQ(terms.back(), "w" + std::to_string(kGapTermsKept - 1) + "x");
}

TEST(GapMeaning, AWordInSeveralOfTheAgentsGroupsMatchesEachGroupsWords) {
  KnowledgeSettings k;
  k.synonyms = {{"tee", "shirt"}, {"cap", "hat"}, {"tee", "top"}};
  EXPECT_TRUE(same("tee sizes", "top sizes", k));
  EXPECT_TRUE(same("shirt sizes", "tee sizes", k));
  EXPECT_FALSE(same("shirt sizes", "top sizes", k));  // no group holds both
  EXPECT_TRUE(same("cap sizes", "hat sizes", k));
}

TEST(GapMeaning, AParaphraseIsTheSameQuestion) {
  EXPECT_TRUE(same("How much is a day pass?", "day pass price"));
  EXPECT_TRUE(same("Can I return my jacket?", "returning a jacket"));
}

TEST(GapMeaning, SpellingSlipsAndSynonymsMatch) {
  EXPECT_TRUE(same("opening hours", "openning hours"));  // one edit in a long word
  EXPECT_TRUE(same("lost luggage", "lost baggage"));     // the thesaurus
  KnowledgeSettings k;
  k.synonyms = {{"refund", "money back"}, {"tee", "t-shirt", "shirt"}};
  EXPECT_TRUE(same("tee sizes", "shirt sizes", k));  // the agent's own synonyms
  EXPECT_FALSE(same("tee sizes", "shirt sizes"));
}

TEST(GapMeaning, DifferentSubjectsStayApart) {
  EXPECT_FALSE(same("day pass price", "day pass refund"));
  EXPECT_FALSE(same("price", "day pass price"));
  EXPECT_FALSE(same("Do you rent bikes?", "Can I bring my dog?"));
}

TEST(ReplyOutcome, FallbackLowConfidenceAndAnswered) {
  EXPECT_EQ(reply_outcome(true, 0.9, 0.6), "fallback");
  EXPECT_EQ(reply_outcome(false, 0.65, 0.6), "low_confidence");
  EXPECT_EQ(reply_outcome(false, 0.7, 0.6), "answered");
  EXPECT_EQ(reply_outcome(false, std::nullopt, 0.6), "answered");
}

}  // namespace
}  // namespace parley
