// The English lexicon and thesaurus from WordNet: which words are English (lemmas, irregular forms,
// regular inflections, and not misspellings), the synonyms of frequent senses, rare senses left
// out, and the reading of the data itself on a small hand-made set.
#include "text/thesaurus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>

namespace parley {
namespace {

bool has_synonym(std::string_view word, std::string_view synonym) {
  const std::vector<std::string>* synonyms = english_synonyms(word);
  return synonyms != nullptr &&
         std::find(synonyms->begin(), synonyms->end(), synonym) != synonyms->end();
}

TEST(Thesaurus, KnowsLemmas) {
  for (std::string_view word : {"luggage", "refund", "kayak", "ferry", "ticket", "cheap", "start",
                                "cancellation", "automobile"}) {
    EXPECT_TRUE(is_english_word(word)) << word;
  }
}

TEST(Thesaurus, KnowsIrregularForms) {
  for (std::string_view word : {"mice", "geese", "children", "ran", "bought", "went", "wolves"}) {
    EXPECT_TRUE(is_english_word(word)) << word;
  }
}

TEST(Thesaurus, KnowsRegularInflections) {
  for (std::string_view word :
       {"kayaks", "booked", "booking", "shipping", "shipped", "stopped", "cheaper", "cheapest",
        "boxes", "churches", "ferries", "hoping", "hopping", "travelled", "traveling", "quitting",
        "refunds", "refunded"}) {
    EXPECT_TRUE(is_english_word(word)) << word;
  }
}

TEST(Thesaurus, RejectsMisspellingsAndNonWords) {
  // "shiping" and "stoped" would be "ship" and "stop" by the endings alone, but a one-syllable
  // word ending consonant-vowel-consonant doubles its consonant. WordNet spells "cancellation".
  for (std::string_view word : {"shiping", "stoped", "recieve", "luggae", "cancelation", "childing",
                                "qwzx", "", "x", "Luggage", "don't"}) {
    EXPECT_FALSE(is_english_word(word)) << word;
  }
}

TEST(Thesaurus, FindsSynonymsOfFrequentSenses) {
  EXPECT_TRUE(has_synonym("luggage", "baggage"));
  EXPECT_TRUE(has_synonym("baggage", "luggage"));
  EXPECT_TRUE(has_synonym("purchase", "buy"));
  EXPECT_TRUE(has_synonym("buy", "purchase"));
  EXPECT_TRUE(has_synonym("car", "automobile"));
  EXPECT_TRUE(has_synonym("begin", "start"));
  EXPECT_TRUE(has_synonym("start", "begin"));
  EXPECT_TRUE(has_synonym("price", "cost"));
  EXPECT_TRUE(has_synonym("cost", "price"));
  EXPECT_TRUE(has_synonym("refund", "repayment"));
  EXPECT_TRUE(has_synonym("cheap", "inexpensive"));
}

TEST(Thesaurus, FindsSynonymsThroughTheLemma) {
  EXPECT_TRUE(has_synonym("bought", "purchase"));  // irregular
  EXPECT_TRUE(has_synonym("buying", "purchase"));
  EXPECT_TRUE(has_synonym("cars", "automobile"));
  EXPECT_TRUE(has_synonym("prices", "cost"));
  EXPECT_TRUE(has_synonym("started", "begin"));
  // Part of speech by part of speech: the noun "booking" does not take the noun "book"'s.
  EXPECT_FALSE(has_synonym("booking", "volume"));
}

TEST(Thesaurus, LeavesRareSensesOut) {
  EXPECT_FALSE(has_synonym("sell", "betray"));  // "sell out" a friend: sense 3 of the verb
  EXPECT_FALSE(has_synonym("buy", "bribe"));    // tagged twice against a hundred for "purchase"
  EXPECT_FALSE(has_synonym("cheap", "tacky"));
  EXPECT_FALSE(has_synonym("child", "nipper"));  // the synonym itself is rare in that sense
  EXPECT_FALSE(has_synonym("hound", "cad"));
}

TEST(Thesaurus, UnknownWordsHaveNoSynonyms) {
  EXPECT_EQ(english_synonyms("luggae"), nullptr);
  EXPECT_EQ(english_synonyms("qwzx"), nullptr);
  EXPECT_EQ(english_synonyms(""), nullptr);
}

TEST(Thesaurus, ReportsItsSize) {
  ThesaurusStats stats = Thesaurus::english().stats();
  EXPECT_GT(stats.lemmas, 70000u);
  EXPECT_GT(stats.irregular_forms, 5000u);
  EXPECT_GT(stats.words_with_synonyms, 5000u);
  EXPECT_GE(stats.synonyms, stats.words_with_synonyms);
  EXPECT_LT(stats.data_bytes, 3u << 20);
  EXPECT_GT(stats.heap_bytes, stats.lemmas * 16);
}

// Lines split across pieces only at line breaks, as the generator writes them.
constexpr std::string_view kLexicon[] = {"book nv\nvolume n\nship nv\nbuy v\nbuying n\n",
                                         "purchase nv\nstop nv\nhalt nv\nbig a\nlarge a\n"};
constexpr std::string_view kExceptions[] = {"bigger a big\n"};
constexpr std::string_view kSynonyms[] = {"book n volume\nbuy v purchase\nstop n halt\n",
                                          "stop v halt\nbig a large\n"};

TEST(Thesaurus, ReadsGivenData) {
  Thesaurus thesaurus(ThesaurusData{kLexicon, kExceptions, kSynonyms});
  EXPECT_TRUE(thesaurus.is_word("ships"));
  EXPECT_TRUE(thesaurus.is_word("shipping"));
  EXPECT_FALSE(thesaurus.is_word("shiping"));
  EXPECT_FALSE(thesaurus.is_word("volumed"));  // a noun only: no verb endings
  EXPECT_TRUE(thesaurus.is_word("bigger"));

  ASSERT_NE(thesaurus.synonyms("stop"), nullptr);
  EXPECT_EQ(*thesaurus.synonyms("stop"), std::vector<std::string>{"halt"});  // merged, once
  ASSERT_NE(thesaurus.synonyms("stopped"), nullptr);
  EXPECT_EQ(*thesaurus.synonyms("stopped"), std::vector<std::string>{"halt"});
  ASSERT_NE(thesaurus.synonyms("bigger"), nullptr);
  EXPECT_EQ(*thesaurus.synonyms("bigger"), std::vector<std::string>{"large"});
  ASSERT_NE(thesaurus.synonyms("buying"), nullptr);  // a noun lemma, and the verb "buy"
  EXPECT_EQ(*thesaurus.synonyms("buying"), std::vector<std::string>{"purchase"});
  EXPECT_EQ(thesaurus.synonyms("booked"), nullptr);  // "book" has noun synonyms only
  EXPECT_EQ(thesaurus.synonyms("ship"), nullptr);

  ThesaurusStats stats = thesaurus.stats();
  EXPECT_EQ(stats.lemmas, 10u);
  EXPECT_EQ(stats.irregular_forms, 1u);
  EXPECT_EQ(stats.words_with_synonyms, 4u);
  EXPECT_EQ(stats.synonyms, 4u);
}

}  // namespace
}  // namespace parley
