// Whether the knowledge answers: an out-of-scope question that shares a word with the knowledge is
// judged below the default answerThreshold (so the retrieval engine gives the fallback, with no
// sources), an in-scope one above it; answerThreshold 0 answers whatever was found and 1 only an
// exact Q&A question. And what the answer is: the sentence of a long snippet that carries the
// asked fact, or a Q&A pair's answer verbatim with the pair as its source.
#include <gtest/gtest.h>

#include "engine/retrieval_engine.h"
#include "knowledge/agent_index.h"
#include "knowledge/answerability.h"
#include "knowledge/memory_retriever.h"
#include "test_sources.h"

namespace parley {
namespace {

using test::qa;
using test::text;

const double kDefaultThreshold = KnowledgeSettings{}.answer_threshold;

constexpr const char* kPrivacy = "We never sell your personal data to third parties.";
constexpr const char* kHours = "We are open from 9 to 5, Monday to Friday.";

class Answerability : public ::testing::Test {
 protected:
  Answerability()
      : clock_(1'800'000'000'000), engine_(clock_, RetrievalOptions{}) {
    knowledge_.add(text("privacy", kPrivacy, "Privacy"));
    knowledge_.add(text("returns", "Returns are accepted within 30 days of purchase with the receipt.",
                    "Returns"));
    knowledge_.add(text("delivery", "Parcels are delivered by courier within three working days.",
                    "Delivery"));
    knowledge_.add(qa("hours", "What are your opening hours?", kHours));
  }

  struct Reply {
    std::string text;
    ReplyBlocks blocks;
  };
  Reply ask(const std::string& message, double threshold) {
    auto settings = std::make_shared<AgentSettings>();
    settings->knowledge.answer_threshold = threshold;
    ReplyRequest r;
    r.agent_id = "agt_1";
    r.settings = settings;
    r.knowledge = &knowledge_;
    r.message = message;
    r.deadline_ms = clock_.now_ms() + 55'000;
    Reply out;
    auto blocks = engine_.reply(r, [&](std::string_view piece) {
      out.text += piece;
      return true;
    });
    EXPECT_TRUE(blocks.ok());
    if (blocks.ok()) out.blocks = *blocks;
    return out;
  }

  ManualClock clock_;
  RetrievalEngine engine_;
  MemoryRetriever knowledge_;
};

TEST_F(Answerability, AnOutOfScopeQuestionSharingAWordIsBelowTheDefaultThreshold) {
  // "sell" is in the privacy snippet; kayaks are nowhere.
  auto a = knowledge_.index().answer("Do you sell kayaks?", 3);
  EXPECT_TRUE(a.text.empty() || a.confidence < kDefaultThreshold) << a.text << " " << a.confidence;
  auto reply = ask("Do you sell kayaks?", kDefaultThreshold);
  EXPECT_EQ(reply.text, kDefaultFallbackMessage);
  EXPECT_TRUE(reply.blocks.sources.empty());
}

TEST_F(Answerability, AnInScopeQuestionIsAboveTheDefaultThreshold) {
  auto a = knowledge_.index().answer("Do you sell my personal data?", 3);
  EXPECT_EQ(a.text, kPrivacy);
  EXPECT_EQ(a.source_id, "privacy");
  EXPECT_GE(a.confidence, kDefaultThreshold);
  auto reply = ask("Do you sell my personal data?", kDefaultThreshold);
  EXPECT_EQ(reply.text, kPrivacy);
  ASSERT_EQ(reply.blocks.sources.size(), 1u);
  EXPECT_EQ(reply.blocks.sources[0].source_id, "privacy");
  EXPECT_EQ(reply.blocks.sources[0].title, "Privacy");
}

TEST_F(Answerability, ThresholdZeroAnswersWhateverWasFound) {
  auto a = knowledge_.index().answer("Do you sell kayaks?", 3);
  ASSERT_FALSE(a.text.empty()) << "the privacy snippet shares \"sell\"";
  EXPECT_EQ(a.source_id, "privacy");
  auto reply = ask("Do you sell kayaks?", 0.0);
  EXPECT_EQ(reply.text, kPrivacy);
  ASSERT_EQ(reply.blocks.sources.size(), 1u);
  EXPECT_EQ(reply.blocks.sources[0].source_id, "privacy");
  // Nothing found at all still falls back.
  auto none = ask("Explain quantum chromodynamics", 0.0);
  EXPECT_EQ(none.text, kDefaultFallbackMessage);
  EXPECT_TRUE(none.blocks.sources.empty());
}

TEST_F(Answerability, ThresholdOneAnswersOnlyAnExactQaQuestion) {
  auto exact = knowledge_.index().answer("  what are your OPENING hours ", 3);
  EXPECT_EQ(exact.text, kHours);
  EXPECT_DOUBLE_EQ(exact.confidence, 1.0);
  EXPECT_EQ(exact.source_id, "hours");
  auto reply = ask("What are your opening hours?", 1.0);
  EXPECT_EQ(reply.text, kHours);
  ASSERT_EQ(reply.blocks.sources.size(), 1u);
  EXPECT_EQ(reply.blocks.sources[0].source_id, "hours");
  EXPECT_EQ(reply.blocks.sources[0].title, "What are your opening hours?");
  // The in-scope question the default threshold answers is not certain enough for 1.
  auto in_scope = knowledge_.index().answer("Do you sell my personal data?", 3);
  EXPECT_LT(in_scope.confidence, 1.0);
  auto fallback = ask("Do you sell my personal data?", 1.0);
  EXPECT_EQ(fallback.text, kDefaultFallbackMessage);
  EXPECT_TRUE(fallback.blocks.sources.empty());
  // So is a close but not identical form of the pair's question.
  auto close = ask("When are you open?", 1.0);
  EXPECT_EQ(close.text, kDefaultFallbackMessage);
}

TEST(AnswerConfidence, GrowsWithCoverageAndShrinksWithForeignWords) {
  AnswerSignals weak;
  weak.coverage = weak.sentence = 0.3;
  AnswerSignals strong = weak;
  strong.coverage = strong.sentence = 1.0;
  strong.key = 1;
  double w = answer_confidence(weak), s = answer_confidence(strong);
  EXPECT_GT(w, 0.0);
  EXPECT_LT(s, 1.0);
  EXPECT_LT(w, s);
  AnswerSignals foreign = strong;
  foreign.foreign = 0.6;
  EXPECT_LT(answer_confidence(foreign), s);
  AnswerSignals ahead = strong;
  ahead.margin = 1.0;
  EXPECT_GT(answer_confidence(ahead), s);
  AnswerSignals no_number = ahead;
  no_number.number = 0;
  EXPECT_LT(answer_confidence(no_number), answer_confidence(ahead));
}

TEST(AnswerSentence, TheSentenceThatCarriesTheFactInALongSnippet) {
  const std::vector<std::string> sentences = {
      "Harbour Tandems has hired out bicycles on the seafront since 1998.",
      "Our staff will help you choose a frame that fits.",
      "Every bicycle is checked by a mechanic before it leaves the shop.",
      "Children's seats and trailers can be fitted on request.",
      "The seafront path is flat and safe for beginners.",
      "Maps of the coastal routes are free at the counter.",
      "A tandem costs 30 euros for a whole day.",
      "Helmets are lent free of charge.",
      "Please return the bicycle before the shop closes.",
      "Late returns are charged as an extra day.",
  };
  std::string content;
  for (const auto& s : sentences) content += (content.empty() ? "" : " ") + s;
  AgentIndex index;
  index.add(text("tandems", content, "Bicycle hire"));
  index.add(text("ferry", "The ferry to the island leaves every hour from the harbour.", "Ferry"));
  auto a = index.answer("How much does a tandem cost?", 3);
  EXPECT_EQ(a.text, sentences[6]);
  EXPECT_EQ(a.source_id, "tandems");
  EXPECT_EQ(a.title, "Bicycle hire");
  EXPECT_GE(a.confidence, kDefaultThreshold);
  auto price = index.answer("What is the price of a tandem for a day?", 3);
  EXPECT_EQ(price.text, sentences[6]);
}

TEST(AnswerSentence, AQaAnswerIsVerbatimWithItsPairAsSource) {
  const std::string answer =
      "Yes, dogs travel free on a lead.\n\nMuzzles are not needed on the open deck!";
  MemoryRetriever knowledge;
  knowledge.add(qa("dogs", "Can I bring my dog on board?", answer));
  knowledge.add(qa("bikes", "Can I bring my bicycle?", "Bicycles travel free."));
  knowledge.add(text("cabins", "Cabins have two beds and a shower.", "Cabins"));
  auto a = knowledge.index().answer("May I bring my dog?", 3);
  EXPECT_EQ(a.text, answer);
  EXPECT_EQ(a.source_id, "dogs");
  EXPECT_EQ(a.title, "Can I bring my dog on board?");
  EXPECT_EQ(a.qa_question, "Can I bring my dog on board?");
  EXPECT_EQ(a.url, std::nullopt);
  EXPECT_GE(a.confidence, kDefaultThreshold);
  EXPECT_LT(a.confidence, 1.0);  // not the exact question

  ManualClock clock(1'800'000'000'000);
  RetrievalEngine engine(clock, RetrievalOptions{});
  ReplyRequest r;
  r.agent_id = "agt_1";
  r.knowledge = &knowledge;
  r.message = "May I bring my dog?";
  r.deadline_ms = clock.now_ms() + 55'000;
  std::string reply;
  auto blocks = engine.reply(r, [&](std::string_view piece) {
    reply += piece;
    return true;
  });
  ASSERT_TRUE(blocks.ok());
  EXPECT_EQ(reply, answer);
  ASSERT_EQ(blocks->sources.size(), 1u);
  EXPECT_EQ(blocks->sources[0].source_id, "dogs");
  EXPECT_EQ(blocks->sources[0].title, "Can I bring my dog on board?");
  EXPECT_EQ(blocks->sources[0].url, std::nullopt);
}

}  // namespace
}  // namespace parley
