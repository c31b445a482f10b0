// The agent's synonym phrases found in a text (knowledge/term_vocabulary.h): a phrase wherever it
// starts, each word given its groups once, and a text's cost bounded by its words and the longest
// phrase however the phrases are shaped (many sharing a beginning, one repeated in every group).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "knowledge/term_vocabulary.h"

namespace parley {
namespace {

std::vector<QueryWord> query(const TermVocabulary& v, const std::string& text) {
  return v.analyze_query(AnalyzedText(text, Analyzer::english()));
}

TEST(SynonymPhrases, APhraseIsFoundWhereverItStartsAndGivesEachOfItsWordsItsGroup) {
  TermVocabulary v(Analyzer::english(),
                   {{"money back", "refund"}, {"money back guarantee", "warranty"}});
  auto words = query(v, "Is there a money back guarantee?");
  auto at = [&](const std::string& surface) {
    for (const auto& w : words)
      if (w.surface == surface) return w.groups;
    ADD_FAILURE() << surface;
    return std::vector<uint32_t>{};
  };
  ASSERT_EQ(at("money").size(), 2u);  // both groups' phrases hold it
  EXPECT_EQ(at("back"), at("money"));
  ASSERT_EQ(at("guarantee").size(), 1u);
  EXPECT_TRUE(at("there").empty());
  // "guarantee" is only in the longer phrase's group.
  EXPECT_NE(std::find(at("money").begin(), at("money").end(), at("guarantee")[0]),
            at("money").end());
}

TEST(SynonymPhrases, ARunOfOneWordAgainstItsPhraseInEveryGroupGivesEachWordEachGroupOnce) {
  // 500 groups (the cap), each holding the same six-word phrase: a message of one word repeated
  // used to give each word every group once per phrase covering it (hundreds of MB).
  std::vector<std::vector<std::string>> synonyms;
  for (int g = 0; g < 500; ++g) synonyms.push_back({"zz zz zz zz zz zz", "y" + std::to_string(g)});
  TermVocabulary v(Analyzer::english(), synonyms);
  std::string message;
  for (int i = 0; i < 1400; ++i) message += "zz ";
  auto words = query(v, message);
  ASSERT_EQ(words.size(), 1400u);
  for (const auto& w : words) {
    ASSERT_EQ(w.groups.size(), 500u);
    EXPECT_EQ(std::set<uint32_t>(w.groups.begin(), w.groups.end()).size(), 500u);
  }
}

TEST(SynonymPhrases, APhraseWrittenTwiceInAGroupCountsOnce) {
  TermVocabulary v(Analyzer::english(), {{"gift card", "Gift cards", "voucher"}});
  std::vector<TermToken> tokens;
  std::vector<uint32_t> groups;
  v.learn("Buy a gift card today", tokens, groups);
  EXPECT_EQ(groups.size(), 1u);
}

TEST(SynonymPhrases, PhrasesSharingABeginningAreWalkedOnce) {
  // 2,000 phrases that differ only in their last word: each word of the text walks the shared
  // beginning once, and only the phrase that ends as the text does is found.
  std::vector<std::vector<std::string>> synonyms;
  for (int g = 0; g < 1000; ++g)
    synonyms.push_back({"aa aa aa aa aa b" + std::to_string(2 * g),
                        "aa aa aa aa aa b" + std::to_string(2 * g + 1)});
  TermVocabulary v(Analyzer::english(), synonyms);
  auto words = query(v, "aa aa aa aa aa b77 and more");
  ASSERT_GE(words.size(), 6u);
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(words[i].groups.size(), 1u) << i;
  EXPECT_TRUE(words[6].groups.empty());
}

}  // namespace
}  // namespace parley
