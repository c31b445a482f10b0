// The shared normaliser: the index's words with plurals folded, content words, phrases.
#include "text/normalizer.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

using Words = std::vector<std::string>;

TEST(Normalizer, FoldsPluralsOfPlainWordsOnly) {
  std::string buffer;
  EXPECT_EQ(fold_plural("refunds", buffer), "refund");
  EXPECT_EQ(fold_plural("deliveries", buffer), "delivery");
  EXPECT_EQ(fold_plural("address", buffer), "address");
  EXPECT_EQ(fold_plural("status", buffer), "status");
  EXPECT_EQ(fold_plural("analysis", buffer), "analysis");
  EXPECT_EQ(fold_plural("its", buffer), "its");
  EXPECT_EQ(fold_plural("mp3s", buffer), "mp3s");
  EXPECT_EQ(fold_plural("cafés", buffer), "cafés");
}

TEST(Normalizer, ContentWordsLeaveFunctionWordsOutBeforeFoldingPlurals) {
  // "does" is a function word, not the plural of "doe".
  EXPECT_EQ(content_words("What does the Delivery cost?"), (Words{"delivery", "cost"}));
  EXPECT_EQ(content_words("Where are my PARCELS?"), (Words{"parcel"}));
  EXPECT_EQ(content_words("Ｒｅｆｕｎｄｓ"), (Words{"refund"}));  // full width
}

TEST(Normalizer, ContentOverlapIsTheDiceOverlapOfContentWords) {
  EXPECT_DOUBLE_EQ(content_overlap("Do you ship parcels abroad?", "shipping a parcel abroad"),
                   2.0 * 2 / (3 + 3));
  EXPECT_DOUBLE_EQ(content_overlap("the", "refunds"), 0.0);
  EXPECT_DOUBLE_EQ(content_overlap("Refunds?", "refund"), 1.0);
}

TEST(Normalizer, PhrasesAreRunsOfConsecutiveWords) {
  auto words = tokenize("Can I TALK to someone, please?");
  EXPECT_TRUE(contains_phrase(words, tokenize("talk to someone")));
  EXPECT_TRUE(contains_phrase(words, tokenize("please")));
  EXPECT_FALSE(contains_phrase(words, tokenize("talk someone")));
  EXPECT_FALSE(contains_phrase(words, {}));
  EXPECT_FALSE(contains_phrase({}, tokenize("talk")));
}

TEST(Normalizer, MatchingKeysIgnoreCaseWidthPunctuationAndPlurals) {
  EXPECT_EQ(normalize_for_match("What are your PRICES?"), "what are your price");
  EXPECT_EQ(normalize_for_match("ｗｈａｔ  are your price"), "what are your price");
}

}  // namespace
}  // namespace parley
