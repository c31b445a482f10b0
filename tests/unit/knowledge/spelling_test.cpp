// Spelling correction of a question's words against the agent's own vocabulary
// (knowledge/term_vocabulary.h): the edit distance (adjacent transpositions count one, the limit
// stops the count), the distance a word's length allows, the most frequent of equally close words,
// and in the index a misspelt word found, a known word and a real English word left alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "knowledge/agent_index.h"
#include "knowledge/term_vocabulary.h"
#include "test_sources.h"

namespace parley {
namespace {

using test::qa;
using test::text;

// The vocabulary of `texts` as English knowledge learns it.
TermVocabulary learned(const std::vector<std::string>& texts) {
  TermVocabulary v(Analyzer::english(), {});
  std::vector<TermToken> tokens;
  std::vector<uint32_t> groups;
  for (const auto& t : texts) v.learn(t, tokens, groups);
  return v;
}

TEST(EditDistance, CountsInsertionsDeletionsSubstitutions) {
  EXPECT_EQ(edit_distance("shipping", "shipping", 2), 0);
  EXPECT_EQ(edit_distance("shiping", "shipping", 2), 1);    // one letter missing
  EXPECT_EQ(edit_distance("shippping", "shipping", 2), 1);  // one letter too many
  EXPECT_EQ(edit_distance("cash", "wash", 2), 1);           // one letter changed
  EXPECT_EQ(edit_distance("kitten", "sitting", 3), 3);
  EXPECT_EQ(edit_distance("", "abc", 3), 3);
}

TEST(EditDistance, AnAdjacentTranspositionCountsOne) {
  EXPECT_EQ(edit_distance("wheelchiar", "wheelchair", 2), 1);
  EXPECT_EQ(edit_distance("cahs", "cash", 2), 1);
  EXPECT_EQ(edit_distance("wheelchiar", "wheelchairs", 2), 2);  // transposition and a letter
}

TEST(EditDistance, StopsAtTheLimit) {
  // Past the limit the answer is limit + 1, however far the words really are.
  EXPECT_EQ(edit_distance("kitten", "sitting", 2), 3);
  EXPECT_EQ(edit_distance("kitten", "sitting", 1), 2);
  EXPECT_EQ(edit_distance("a", "abcdef", 2), 3);  // the lengths alone differ by more
  EXPECT_EQ(edit_distance("abcdefgh", "zyxwvuts", 2), 3);
  EXPECT_EQ(edit_distance("cash", "wash", 0), 1);
}

// The whole optimal string alignment table, without a limit: what the banded count must agree
// with wherever the distance is within the limit.
int full_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

TEST(EditDistance, TheBandedCountAgreesWithTheWholeTable) {
  std::mt19937 random(7);
  auto word = [&] {
    std::string w(random() % 12, 'a');
    for (char& c : w) c = static_cast<char>('a' + random() % 3);
    return w;
  };
  for (int n = 0; n < 20'000; ++n) {
    std::string a = word(), b = word();
    int limit = static_cast<int>(random() % 4);
    int full = full_distance(a, b);
    ASSERT_EQ(edit_distance(a, b, limit), std::min(full, limit + 1))
        << a << " " << b << " " << limit;
  }
  // Longer than the rows kept on the stack.
  std::string long_a(100, 'x'), long_b = long_a;
  long_b[50] = 'y';
  EXPECT_EQ(edit_distance(long_a, long_b, 2), 1);
}

TEST(TermVocabulary, CorrectsAMisspeltWordToTheKnowledgesWord) {
  auto v = learned({"Shipping is free on orders over fifty euros.", "We rent wheelchairs."});
  Correction c = v.correct("shiping");
  EXPECT_EQ(c.term, v.find_surface("shipping"));
  EXPECT_NE(c.term, kNoTerm);
  EXPECT_EQ(c.distance, 1);
  Correction w = v.correct("wheelchiar");  // 10 letters: two edits allowed
  EXPECT_EQ(w.term, v.find_surface("wheelchairs"));
  EXPECT_NE(w.term, kNoTerm);
  EXPECT_EQ(w.distance, 2);
}

TEST(TermVocabulary, LengthDecidesHowFarACorrectionMayGo) {
  auto v = learned({"The station has a lift for every passenger."});
  // Under 4 letters: never corrected, even one edit away.
  EXPECT_EQ(v.correct("lif").term, kNoTerm);
  EXPECT_EQ(v.correct("hsa").term, kNoTerm);
  // 4 to 7 letters: one edit.
  EXPECT_EQ(v.correct("statoin").term, v.find_surface("station"));
  EXPECT_EQ(v.correct("statoin").distance, 1);
  EXPECT_EQ(v.correct("sdasion").term, kNoTerm);  // two edits from "station"
  // 8 letters and more: two edits.
  Correction p = v.correct("pasenger");
  EXPECT_EQ(p.term, v.find_surface("passenger"));
  EXPECT_EQ(p.distance, 1);
  Correction far = v.correct("pasengre");  // a missing letter and a transposition
  EXPECT_EQ(far.term, v.find_surface("passenger"));
  EXPECT_EQ(far.distance, 2);
  EXPECT_EQ(v.correct("pssngr").term, kNoTerm);
}

// Words over 40 letters are codes or run-together text, not misspellings, and comparing two of
// them costs the square of their length: neither a question's nor the knowledge's is corrected.
TEST(TermVocabulary, AWordOverFortyLettersIsNeitherCorrectedNorACandidate) {
  const std::string word41 = std::string(40, 'a') + "b", word40 = std::string(39, 'a') + "c";
  auto v = learned({"Code " + word41 + " and " + word40 + "."});
  EXPECT_EQ(v.correct(std::string(40, 'a') + "d").term, kNoTerm);  // one edit from word41
  EXPECT_EQ(v.correct(word40 + "d").term, kNoTerm);                // 41 letters: not corrected
  EXPECT_EQ(v.correct(std::string(38, 'a') + "c").term, v.find_surface(word40));
  // A 40-letter question word one edit from a 41-letter knowledge word (and from nothing else).
  auto only_long = learned({"Code " + std::string(40, 'x') + "y."});
  EXPECT_EQ(only_long.correct(std::string(39, 'x') + "y").term, kNoTerm);
}

TEST(TermVocabulary, AShortKnowledgeWordIsNoCandidate) {
  // "cats" is one edit from "cat", but a three-letter word is too easily another word.
  auto v = learned({"A cat lives in the shop."});
  EXPECT_EQ(v.correct("cats").term, kNoTerm);
}

TEST(TermVocabulary, TheMoreFrequentOfEquallyCloseWordsWins) {
  auto card =
      learned({"Pay by card.", "Your card is charged.", "Show the card.", "A cart is free."});
  ASSERT_NE(card.find_surface("card"), card.find_surface("cart"));
  Correction c = card.correct("carx");  // one substitution from both
  EXPECT_EQ(c.term, card.find_surface("card"));
  EXPECT_EQ(c.distance, 1);
  auto cart = learned({"A cart is free.", "Take a cart.", "Return the cart.", "Pay by card."});
  EXPECT_EQ(cart.correct("carx").term, cart.find_surface("cart"));
}

TEST(TermVocabulary, TheCloserWordWinsOverTheMoreFrequent) {
  auto v = learned({"shopping shopping shopping shopping", "shipping"});
  // 9 letters allow two edits: "shopping" is two away and more frequent, "shipping" one.
  Correction c = v.correct("shippingg");
  EXPECT_EQ(c.term, v.find_surface("shipping"));
  EXPECT_EQ(c.distance, 1);
}

class Spelling : public ::testing::Test {
 protected:
  Spelling() {
    index_.add(text("shipping", "Shipping is free on orders over fifty euros."));
    index_.add(text("wheelchairs", "The ferry has two wheelchairs that passengers may borrow."));
    index_.add(text("cash", "We accept cash and every major card."));
    index_.add(text("hours", "The office opens at nine in the morning."));
    index_.add(text("bus", "A bus leaves the harbour every hour."));
  }
  // Whether the plan's slot of `word` (a word the knowledge lacks) stands for it by any of the
  // knowledge's terms: by a correction, since the knowledge has no synonym of it either.
  static bool corrected(const QueryPlan& plan, std::string_view word) {
    for (const auto& slot : plan.slots)
      if (slot.word == word) return !slot.alternatives.empty();
    return false;
  }
  AgentIndex index_;
};

TEST_F(Spelling, AMisspeltWordFindsTheSnippet) {
  auto hits = index_.search("Is shiping free?", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "shipping");
  auto a = index_.answer("Is shiping free?", 3);
  EXPECT_EQ(a.text, "Shipping is free on orders over fifty euros.");
  EXPECT_EQ(a.source_id, "shipping");
  // The plan stands for the word by the knowledge's, at a credit below an exact match.
  auto plan = index_.plan("shiping");
  ASSERT_EQ(plan.slots.size(), 1u);
  ASSERT_EQ(plan.slots[0].alternatives.size(), 1u);
  EXPECT_LT(plan.slots[0].alternatives[0].weight, 1.0f);
  EXPECT_GT(plan.slots[0].alternatives[0].weight, 0.0f);
}

TEST_F(Spelling, ATransposedWordFindsTheSnippet) {
  auto hits = index_.search("Can I borrow a wheelchiar?", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "wheelchairs");
  auto only = index_.search("wheelchiar", 3);
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only[0].source_id, "wheelchairs");
}

TEST_F(Spelling, AKnownWordIsLeftAlone) {
  // "card" is known; "cart", one edit away, is not what it is corrected into.
  index_.add(text("cart", "Your cart is saved for a week."));
  auto plan = index_.plan("card");
  ASSERT_EQ(plan.slots.size(), 1u);
  ASSERT_FALSE(plan.slots[0].alternatives.empty());
  EXPECT_FLOAT_EQ(plan.slots[0].alternatives[0].weight, 1.0f);
  auto hits = index_.search("card", 5);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].source_id, "cash");
}

TEST_F(Spelling, ARealEnglishWordTheKnowledgeLacksIsNotCorrected) {
  // "wash" is one edit from "cash", but it is a word: the asker meant it.
  EXPECT_FALSE(corrected(index_.plan("Do you wash bikes?"), "wash"));
  EXPECT_TRUE(index_.search("wash", 5).empty());
  auto a = index_.answer("Do you wash bikes?", 3);
  EXPECT_EQ(a.text, "");
  EXPECT_EQ(a.source_id, "");
  // A misspelling of the same word is corrected.
  EXPECT_TRUE(corrected(index_.plan("cahs"), "cahs"));
  auto hits = index_.search("Can I pay in cahs?", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "cash");
}

TEST_F(Spelling, ShortWordsAreNotCorrected) {
  // "bsu" is one transposition from "bus", but three letters are too few to guess from.
  EXPECT_FALSE(corrected(index_.plan("bsu"), "bsu"));
  EXPECT_TRUE(index_.search("bsu", 5).empty());
  auto hits = index_.search("bus", 5);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].source_id, "bus");
}

TEST(TermVocabulary, LettersAreCountedAsCharactersNotBytes) {
  // "でき" and "です" are two characters each (six bytes in UTF-8, five of them shared): words of
  // fewer than four letters are never corrected, whatever their script.
  const Analyzer* ja = Analyzer::for_language("ja");
  ASSERT_NE(ja, nullptr);
  TermVocabulary v(*ja, {});
  std::vector<TermToken> tokens;
  std::vector<uint32_t> groups;
  v.learn("送料は無料です。", tokens, groups);
  ASSERT_NE(v.find_surface("です"), kNoTerm);
  EXPECT_EQ(v.correct("でき").term, kNoTerm);
  // Nor is a three-letter Cyrillic word (six bytes, one of them different) corrected into another.
  TermVocabulary ru(*Analyzer::for_language("ru"), {});
  ru.learn("Кот спит у моря.", tokens, groups);
  ASSERT_NE(ru.find_surface("кот"), kNoTerm);
  EXPECT_EQ(ru.correct("кит").term, kNoTerm);  // "whale" is not a misspelt "cat"
}

}  // namespace
}  // namespace parley
