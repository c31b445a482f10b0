// The evidence a question is judged by: what kind of fact it asks for, whether a text states it,
// which words only shape the question, and which sentences of a chunk answer (a heading line is
// context, not an answer; at least one sentence is quoted even when none is asked for).
#include "knowledge/evidence.h"

#include <gtest/gtest.h>

#include "knowledge/chunker.h"
#include "text/sentences.h"

namespace parley {
namespace {

TEST(AnswerKind, ComesFromTheQuestionsWords) {
  EXPECT_EQ(answer_kind("How much is a ticket?"), AnswerKind::kQuantity);
  EXPECT_EQ(answer_kind("price of a cabin"), AnswerKind::kQuantity);
  EXPECT_EQ(answer_kind("How often do boats go?"), AnswerKind::kQuantity);
  EXPECT_EQ(answer_kind("When does the ferry leave?"), AnswerKind::kTime);
  EXPECT_EQ(answer_kind("What time is breakfast"), AnswerKind::kTime);
  EXPECT_EQ(answer_kind("last express back"), AnswerKind::kTime);
  EXPECT_EQ(answer_kind("Do you allow dogs?"), AnswerKind::kAny);
  EXPECT_EQ(answer_kind(""), AnswerKind::kAny);
}

TEST(StatesKind, NumbersDaysAndMonths) {
  EXPECT_TRUE(states_kind("Tickets cost 5 euros.", AnswerKind::kQuantity));
  EXPECT_TRUE(states_kind("Sailings leave every two hours.", AnswerKind::kQuantity));
  EXPECT_FALSE(states_kind("Dogs are welcome on board.", AnswerKind::kQuantity));
  EXPECT_TRUE(states_kind("It runs on Tuesdays and Saturdays only.", AnswerKind::kTime));
  EXPECT_FALSE(states_kind("It runs on Tuesdays and Saturdays only.", AnswerKind::kQuantity));
  EXPECT_TRUE(states_kind("Anything at all", AnswerKind::kAny));
}

TEST(QuestionPhrase, HowAndItsMeasureShapeTheQuestion) {
  EXPECT_TRUE(is_question_phrase("how", "long"));
  EXPECT_TRUE(is_question_phrase("how", "much"));
  EXPECT_FALSE(is_question_phrase("how", "cabins"));
  EXPECT_FALSE(is_question_phrase("very", "long"));
}

TEST(SentenceSpans, EndAtStopsLineBreaksAndFullWidthStops) {
  std::string_view text = "One. Two!\nThree 4.50 euros? 返品できます。送料は無料です。";
  std::vector<std::string> got;
  for (auto [b, e] : sentence_spans(text)) got.emplace_back(text.substr(b, e - b));
  EXPECT_EQ(got, (std::vector<std::string>{"One.", "Two!", "Three 4.50 euros?", "返品できます。", "送料は無料です。"}));
  EXPECT_TRUE(sentence_spans(" \n ").empty());
}

TEST(HeadingLine, ATopicNotAFact) {
  EXPECT_TRUE(is_heading_line("Cabin classes"));
  EXPECT_TRUE(is_heading_line("## Pets on board"));
  EXPECT_TRUE(is_heading_line("Prices:"));
  EXPECT_FALSE(is_heading_line("Adult ticket: 45 EUR"));
  EXPECT_FALSE(is_heading_line("Saturday 10-14"));
  EXPECT_FALSE(is_heading_line("Children under five travel free of charge on every route"));
  EXPECT_FALSE(is_heading_line("Dogs are welcome."));
  EXPECT_FALSE(is_heading_line("返品できます。"));
}

// A plan of two slots, "child" (term 1) and "ticket" (term 2), the first the heavier.
QueryPlan child_ticket_plan() {
  QueryPlan plan;
  plan.slots = {{"child", 3.0, {{1, 1.0f}}}, {"ticket", 1.0, {{2, 1.0f}}}};
  plan.total_weight = 4.0;
  plan.key_slot = 0;
  plan.kind = AnswerKind::kQuantity;
  return plan;
}

TEST(PickSentences, TheSentenceThatCarriesTheFact) {
  const std::vector<uint32_t> heading = {1}, adult = {2}, child = {2}, about = {};
  std::vector<SentenceTerms> sentences = {
      {"Children", heading, true},  // a heading line: context for what follows
      {"A ticket costs 9 euros.", child, false},
      {"Adults pay more.", adult, false},
  };
  auto pick = pick_sentences(child_ticket_plan(), sentences, about, 3);
  EXPECT_EQ(pick.text, "A ticket costs 9 euros.");
  EXPECT_TRUE(pick.key_covered);  // by the heading
  EXPECT_NEAR(pick.coverage, 1.0, 1e-9);
  EXPECT_NEAR(pick.sentence, 1.0, 1e-9);
}

TEST(PickSentences, AtLeastOneSentenceEvenWhenNoneIsAskedFor) {
  const std::vector<uint32_t> both = {1, 2}, none = {};
  std::vector<SentenceTerms> sentences = {{"A child ticket costs 9 euros.", both, false}};
  EXPECT_EQ(pick_sentences(child_ticket_plan(), sentences, none, 0).text, "A child ticket costs 9 euros.");
  EXPECT_EQ(pick_sentences(child_ticket_plan(), sentences, none, 1).text, "A child ticket costs 9 euros.");
  EXPECT_TRUE(pick_sentences(QueryPlan{}, sentences, none, 3).text.empty());
}

}  // namespace
}  // namespace parley
