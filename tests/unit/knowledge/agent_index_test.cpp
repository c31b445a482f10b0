// The per-agent index: BM25 ranking, removal taking effect at once, Q&A matching scores.
#include "knowledge/agent_index.h"

#include <gtest/gtest.h>

#include "knowledge/chunker.h"
#include "test_sources.h"

namespace parley {
namespace {

using test::qa;
using test::text;

TEST(AgentIndex, RanksTheMatchingChunkFirst) {
  AgentIndex index;
  index.add(text("a", "Our shop opens at nine in the morning."));
  index.add(text("b", "Refunds are paid within five days.", "Refunds"));
  index.add(text("c", "We ship to many countries in Europe."));
  auto hits = index.search("When are refunds paid?", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "b");
  EXPECT_EQ(hits[0].title, "Refunds");
  EXPECT_EQ(hits[0].source_type, "text");
  EXPECT_GT(hits[0].score, 0);
  for (size_t i = 1; i < hits.size(); ++i) EXPECT_LE(hits[i].score, hits[i - 1].score);
}

TEST(AgentIndex, NothingMatchesGivesNothing) {
  AgentIndex index;
  EXPECT_TRUE(index.search("anything", 5).empty());
  index.add(text("a", "apples and pears"));
  EXPECT_TRUE(index.search("bananas", 5).empty());
  EXPECT_TRUE(index.search("apples", 0).empty());
}

TEST(AgentIndex, RemovedSourceIsGoneAtOnce) {
  AgentIndex index;
  index.add(text("a", "apples and pears"));
  index.add(text("b", "apples and plums"));
  EXPECT_EQ(index.search("apples", 5).size(), 2u);
  EXPECT_TRUE(index.remove("a"));
  auto hits = index.search("apples pears", 5);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].source_id, "b");
  EXPECT_FALSE(index.remove("a"));
  EXPECT_EQ(index.live_chunks(), 1u);
}

TEST(AgentIndex, ManyRemovalsCompactAndKeepResultsRight) {
  AgentIndex index;
  for (int i = 0; i < 3000; ++i) index.add(text("s" + std::to_string(i), "common word number" + std::to_string(i)));
  for (int i = 0; i < 2500; ++i) index.remove("s" + std::to_string(i));
  auto hits = index.search("number2999", 3);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].source_id, "s2999");
  EXPECT_EQ(index.search("common", 1000).size(), 500u);
}

TEST(AgentIndex, QaExactQuestionScoresOne) {
  AgentIndex index;
  index.add(qa("q1", "What is X?", "X is a letter."));
  index.add(qa("q2", "Where is the shop?", "In Ghent."));
  auto m = index.match_qa("  what IS x ", 5);
  ASSERT_EQ(m.size(), 1u);  // the other shares only the stop word "is"
  EXPECT_EQ(m[0].source_id, "q1");
  EXPECT_DOUBLE_EQ(m[0].score, 1.0);
  EXPECT_EQ(m[0].answer, "X is a letter.");
  EXPECT_EQ(index.match_qa("what is x", 1).size(), 1u);
}

TEST(AgentIndex, QaCloseMatchScoresBelowOneAndUnrelatedIsLeftOut) {
  AgentIndex index;
  index.add(qa("q1", "Where is the shop?", "In Ghent."));
  index.add(qa("q2", "How much is shipping?", "Free."));
  auto m = index.match_qa("where is your shop located", 5);
  ASSERT_GE(m.size(), 1u);
  EXPECT_EQ(m[0].source_id, "q1");
  EXPECT_LT(m[0].score, 1.0);
  EXPECT_GT(m[0].score, 0.0);
  EXPECT_TRUE(index.match_qa("bananas", 5).empty());
  EXPECT_TRUE(index.remove("q1"));
  EXPECT_EQ(index.qa_pairs(), 1u);
}

TEST(AgentIndex, QaPairsAreNotTextChunks) {
  AgentIndex index;
  index.add(qa("q1", "Where is the shop?", "In Ghent."));
  EXPECT_TRUE(index.search("shop", 5).empty());
}

TEST(AgentIndex, EveryChunkOfACutParagraphIsFoundByItsHeading) {
  std::string cabins;
  for (int i = 0; i < 60; ++i) cabins += "Cabin " + std::to_string(i) + " sleeps two people in bunk beds. ";
  ASSERT_GT(cabins.size(), 2 * kChunkTargetBytes);
  AgentIndex index;
  size_t chunks = index.add(text("ferry", "Meals\n\nThe restaurant opens at noon.\n\nAccommodation\n\n" + cabins));
  ASSERT_GE(chunks, 3u);
  // Only the first piece of the paragraph starts with the heading; every piece is found by it.
  auto hits = index.search("accommodation", 10);
  EXPECT_EQ(hits.size(), chunks - 1);
  for (const auto& h : hits) {
    EXPECT_EQ(h.source_id, "ferry");
    EXPECT_EQ(h.text.find("restaurant"), std::string::npos) << h.text;
  }
  // The last piece, which does not contain the heading, answers a question about it.
  auto last = index.search("accommodation cabin 59", 1);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].text.find("Accommodation"), std::string::npos);
  EXPECT_NE(last[0].text.find("Cabin 59 sleeps two"), std::string::npos);
}

TEST(AgentIndex, ListLinesAreFactsNotHeadings) {
  AgentIndex index;
  index.add(text("fares", "Ferry fares\nAdult ticket: 45 EUR\nChild ticket: 20 EUR\nSenior ticket: 30 EUR\n"
                          "Bicycles travel free of charge.",
                 "Fares"));
  auto child = index.answer("How much is a child ticket?", 3);
  EXPECT_NE(child.text.find("Child ticket: 20 EUR"), std::string::npos) << child.text;
  auto senior = index.answer("Price of a senior ticket?", 3);
  EXPECT_NE(senior.text.find("Senior ticket: 30 EUR"), std::string::npos) << senior.text;
}

TEST(AgentIndex, ASourceRetrainedManyTimesAsksForARebuild) {
  AgentIndex index;
  index.add(text("stays", "The shop opens at nine and closes at five."));
  for (int i = 0; i < 300; ++i) {
    index.add(text("changes", "Version " + std::to_string(i) + " of the notice."));
    if (index.wants_rebuild()) {
      EXPECT_GT(i, 200);  // not before removals outnumber the floor
      return;
    }
  }
  FAIL() << "300 replacements of one source never asked for a rebuild";
}

TEST(AgentIndex, ALongMessageIsWeighedByItsFirstWords) {
  AgentIndex index;
  index.add(text("hours", "The shop opens at nine and closes at five.", "Opening hours"));
  std::string message = "When does the shop open?";
  while (message.size() < 10'000) message += " lorem ipsum dolor sit amet zzyzx" + std::to_string(message.size());
  auto plan = index.plan(message);
  EXPECT_LE(plan.slots.size(), 48u);
  auto a = index.answer(message, 3);
  EXPECT_EQ(a.source_id, "hours");  // still found by the words that come first
}

TEST(AgentIndex, FrenchElisionsAreSplitOff) {
  KnowledgeSettings fr;
  fr.language = "fr";
  AgentIndex index(fr);
  index.add(text("hotel", "Notre hôtel partenaire offre dix pour cent de remise."));
  auto hits = index.search("Quelle remise pour l'hôtel ?", 1);
  ASSERT_EQ(hits.size(), 1u);
  auto plan = index.plan("l'hôtel");
  ASSERT_EQ(plan.slots.size(), 1u);
  EXPECT_FALSE(plan.slots[0].alternatives.empty());  // "l'hôtel" is the knowledge's "hôtel"
}

}  // namespace
}  // namespace parley
