// Synonyms in the index: the agent's `synonyms` groups (a phrase in the question meets a word of
// the knowledge, and a word of the question a phrase of the knowledge, only when the setting says
// so), and the English thesaurus' synonyms, credited below the word itself.
#include <gtest/gtest.h>

#include <algorithm>

#include "knowledge/agent_index.h"
#include "text/thesaurus.h"
#include "test_sources.h"

namespace parley {
namespace {

using test::qa;
using test::text;

const double kAnswerThreshold = KnowledgeSettings{}.answer_threshold;

bool has_source(const std::vector<RetrievedChunk>& hits, std::string_view id) {
  return std::any_of(hits.begin(), hits.end(),
                     [&](const RetrievedChunk& h) { return h.source_id == id; });
}

void add_shop(AgentIndex& index) {
  index.add(text("refunds", "Refunds are paid to your card within five days."));
  index.add(text("hours", "Our shop opens at nine in the morning and closes at six."));
  index.add(text("delivery", "Delivery takes two working days in the country."));
}

TEST(AgentSynonyms, APhraseOfTheQuestionMeetsAWordOfTheKnowledge) {
  KnowledgeSettings settings;
  settings.synonyms = {{"refund", "money back"}};
  AgentIndex index(settings);
  add_shop(index);
  auto hits = index.search("can I get my money back?", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "refunds");
  auto a = index.answer("can I get my money back?", 3);
  EXPECT_EQ(a.text, "Refunds are paid to your card within five days.");
  EXPECT_EQ(a.source_id, "refunds");
  EXPECT_GE(a.confidence, kAnswerThreshold);
}

TEST(AgentSynonyms, WithoutTheSettingThePhraseFindsNothing) {
  AgentIndex index;
  add_shop(index);
  EXPECT_FALSE(has_source(index.search("can I get my money back?", 3), "refunds"));
  auto a = index.answer("can I get my money back?", 3);
  EXPECT_TRUE(a.text.empty() || a.confidence < kAnswerThreshold) << a.text << " " << a.confidence;
  EXPECT_NE(a.source_id, "refunds");
}

TEST(AgentSynonyms, OnlyTheWholePhraseIsTheGroup) {
  KnowledgeSettings settings;
  settings.synonyms = {{"refund", "money back"}};
  AgentIndex index(settings);
  add_shop(index);
  // "back" and "money" apart are not "money back".
  EXPECT_FALSE(has_source(index.search("When are you back?", 3), "refunds"));
  EXPECT_FALSE(has_source(index.search("Do you take money?", 3), "refunds"));
}

TEST(AgentSynonyms, AWordOfTheQuestionMeetsAPhraseOfTheKnowledge) {
  auto make = [](const KnowledgeSettings& settings) {
    AgentIndex index(settings);
    index.add(text("cycles", "Each passenger may bring one pedal cycle free of charge."));
    index.add(text("bags", "Each passenger may bring two bags into the cabin."));
    index.add(text("pets", "Pets must stay in the car during the crossing."));
    return index;
  };
  KnowledgeSettings with;
  with.synonyms = {{"bike", "pedal cycle"}};
  AgentIndex index = make(with);
  auto hits = index.search("Can I bring my bike?", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "cycles");
  auto a = index.answer("Can I bring my bike?", 3);
  EXPECT_EQ(a.text, "Each passenger may bring one pedal cycle free of charge.");
  EXPECT_EQ(a.source_id, "cycles");
  EXPECT_GE(a.confidence, kAnswerThreshold);
  // Inflected on either side, the group still meets: "bikes", "pedal cycles".
  index.add(text("cycles", "Pedal cycles travel on the lower deck."));
  auto plural = index.search("Where do bikes go?", 3);
  ASSERT_FALSE(plural.empty());
  EXPECT_EQ(plural[0].source_id, "cycles");

  AgentIndex without = make(KnowledgeSettings{});
  auto b = without.answer("Can I bring my bike?", 3);
  EXPECT_TRUE(b.source_id != "cycles" || b.confidence < kAnswerThreshold)
      << b.text << " " << b.confidence;
}

TEST(ThesaurusSynonyms, AQuestionsWordFindsItsSynonymInTheKnowledge) {
  const auto* synonyms = english_synonyms("baggage");
  ASSERT_NE(synonyms, nullptr);
  ASSERT_NE(std::find(synonyms->begin(), synonyms->end(), "luggage"), synonyms->end());
  AgentIndex index;
  index.add(text("luggage", "Luggage is stored in the hold during the crossing."));
  index.add(text("pets", "Pets must stay in the car during the crossing."));
  auto hits = index.search("Where is my baggage kept?", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "luggage");
  auto a = index.answer("Where is my baggage kept?", 3);
  EXPECT_EQ(a.text, "Luggage is stored in the hold during the crossing.");
  EXPECT_EQ(a.source_id, "luggage");
}

TEST(ThesaurusSynonyms, ASynonymCountsLessThanTheWordItself) {
  AgentIndex index;
  index.add(text("luggage", "Luggage is stored in the hold."));
  index.add(text("baggage", "Baggage is stored in the hold."));
  auto plan = index.plan("baggage");
  ASSERT_EQ(plan.slots.size(), 1u);
  ASSERT_EQ(plan.slots[0].alternatives.size(), 2u);
  EXPECT_FLOAT_EQ(plan.slots[0].alternatives[0].weight, 1.0f);  // the word's own term first
  EXPECT_LT(plan.slots[0].alternatives[1].weight, 1.0f);
  EXPECT_GT(plan.slots[0].alternatives[1].weight, 0.0f);
  auto hits = index.search("Where is baggage stored?", 3);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].source_id, "baggage");
  EXPECT_EQ(hits[1].source_id, "luggage");
  EXPECT_GT(hits[0].score, hits[1].score);
  // And the other way round: each word ranks its own snippet first.
  auto back = index.search("Where is luggage stored?", 3);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].source_id, "luggage");
  EXPECT_EQ(index.answer("Where is baggage stored?", 3).source_id, "baggage");
}

}  // namespace
}  // namespace parley
