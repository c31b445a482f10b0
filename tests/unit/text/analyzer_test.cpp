// The one text analyser: Snowball stems by language, case and width folding, stop words per
// language, every script split into words; and the word lists the matchers build on it.
#include "text/analyzer.h"

#include <gtest/gtest.h>

#include "text/normalizer.h"

namespace parley {
namespace {

using Words = std::vector<std::string>;

TEST(Analyzer, StemsEnglishInflectionsToOneTerm) {
  const Analyzer& en = Analyzer::english();
  EXPECT_EQ(en.terms("refund refunds refunded refunding"), (Words{"refund", "refund", "refund", "refund"}));
  EXPECT_EQ(en.terms("Deliveries delivery"), (Words{"deliveri", "deliveri"}));
  EXPECT_EQ(en.terms("shipping ships shipped"), (Words{"ship", "ship", "ship"}));
  // Numbers and addresses are matched as written.
  EXPECT_EQ(en.terms("4.90 a@b.example"), (Words{"4.90", "a@b.example"}));
}

TEST(Analyzer, FoldsCaseWidthAndApostrophes) {
  const Analyzer& en = Analyzer::english();
  EXPECT_EQ(en.terms("ＲＥＦＵＮＤＳ"), (Words{"refund"}));
  EXPECT_EQ(en.content_terms("Don’t DON'T"), Words{});  // both are the stop word "don't"
}

TEST(Analyzer, StopWordsAreThoseOfTheLanguage) {
  EXPECT_EQ(Analyzer::english().content_terms("What does the delivery cost?"), (Words{"deliveri", "cost"}));
  const Analyzer* fr = Analyzer::for_language("fr");
  ASSERT_NE(fr, nullptr);
  EXPECT_EQ(fr->content_terms("Quels sont les frais de livraison ?"), (Words{"frais", "livraison"}));
  EXPECT_EQ(fr->terms("livraisons"), (Words{"livraison"}));
  const Analyzer* de = Analyzer::for_language("de");
  ASSERT_NE(de, nullptr);
  EXPECT_EQ(de->content_terms("Wie lange dauert die Lieferung?"), (Words{"lang", "dauert", "liefer"}));
}

TEST(Analyzer, SplitsOtherScriptsIntoWords) {
  // Chinese has no spaces: ICU's dictionary splits it; Russian is stemmed by its own stemmer.
  const Analyzer* zh = Analyzer::for_language("zh");
  ASSERT_NE(zh, nullptr);
  EXPECT_FALSE(zh->has_stemmer());
  auto words = zh->terms("退货政策是什么");
  EXPECT_GE(words.size(), 3u);
  EXPECT_EQ(words.back(), "什么");
  const Analyzer* ru = Analyzer::for_language("ru");
  ASSERT_NE(ru, nullptr);
  EXPECT_EQ(ru->terms("Доставка доставки"), (Words{"доставк", "доставк"}));
  // An English agent leaves another script's words whole rather than breaking them.
  EXPECT_EQ(Analyzer::english().terms("Доставка"), (Words{"доставка"}));
}

TEST(Analyzer, KnowsItsLanguages) {
  EXPECT_TRUE(Analyzer::supported_language("en"));
  EXPECT_TRUE(Analyzer::supported_language("ja"));
  EXPECT_FALSE(Analyzer::supported_language("xx"));
  EXPECT_FALSE(Analyzer::supported_language("EN"));
  EXPECT_EQ(Analyzer::for_language("xx"), nullptr);
  EXPECT_NE(Analyzer::supported_languages().find("en, es"), std::string::npos);
}

TEST(Analyzer, LemmasUndoInflectionOnly) {
  const Analyzer& en = Analyzer::english();
  EXPECT_EQ(en.lemmas("Refunds talking children kept cheaper"), (Words{"refund", "talk", "child", "keep", "cheap"}));
  // A stem joins what a lemma keeps apart.
  EXPECT_EQ(en.terms("humane"), en.terms("human"));
  EXPECT_NE(en.lemmas("humane"), en.lemmas("human"));
  EXPECT_EQ(en.lemmas("What is it", true), Words{});
}

TEST(Normalizer, ContentOverlapIsTheDiceOverlapOfContentLemmas) {
  EXPECT_DOUBLE_EQ(content_overlap("Do you ship parcels abroad?", "ship a parcel abroad"), 1.0);
  EXPECT_DOUBLE_EQ(content_overlap("Do you ship parcels abroad?", "a parcel"), 2.0 * 1 / (3 + 1));
  EXPECT_DOUBLE_EQ(content_overlap("the", "refunds"), 0.0);
}

TEST(Normalizer, PhrasesAreRunsOfConsecutiveTerms) {
  auto words = tokenize("Can I TALK to someone, please?");
  EXPECT_TRUE(contains_phrase(words, tokenize("talking to someone")));
  EXPECT_TRUE(contains_phrase(words, tokenize("please")));
  EXPECT_FALSE(contains_phrase(words, tokenize("talk someone")));
  EXPECT_FALSE(contains_phrase(words, {}));
  EXPECT_FALSE(contains_phrase({}, tokenize("talk")));
  // A phrase whose beginning repeats inside it (a border) is still found after a near miss.
  using Words = std::vector<std::string>;
  EXPECT_TRUE(contains_phrase(Words{"a", "a", "b", "a", "a", "a", "b"}, Words{"a", "a", "a", "b"}));
  EXPECT_TRUE(contains_phrase(Words{"a", "b", "a", "b", "a", "c"}, Words{"a", "b", "a", "c"}));
  EXPECT_FALSE(contains_phrase(Words{"a", "b", "a", "b", "a", "b"}, Words{"a", "b", "a", "c"}));
  // A message of one word repeated against a long phrase of that word and another: linear, not
  // the product of the two (3,000 × 1,600 comparisons before).
  Words message(3000, "zz"), phrase(1600, "zz");
  phrase.push_back("yy");
  EXPECT_FALSE(contains_phrase(message, phrase));
  message.push_back("yy");
  EXPECT_TRUE(contains_phrase(message, phrase));
}

TEST(Normalizer, MatchingKeysIgnoreCaseWidthPunctuationAndInflection) {
  EXPECT_EQ(normalize_for_match("What are your PRICES?"), "what be your price");
  EXPECT_EQ(normalize_for_match("ｗｈａｔ  are your price"), "what be your price");
  EXPECT_EQ(normalize_for_match("What is X?"), normalize_for_match("  what   is x "));
}

}  // namespace
}  // namespace parley
