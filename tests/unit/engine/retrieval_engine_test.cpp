#include "engine/retrieval_engine.h"

#include <gtest/gtest.h>

#include "fake_retriever.h"

namespace parley {
namespace {

class RetrievalEngineTest : public ::testing::Test {
 protected:
  RetrievalEngineTest() : clock_(1'800'000'000'000), engine_(clock_, RetrievalOptions{}) {
    knowledge_.qa = {
        {"src_qa1", "What are your opening hours?", "We are open 9 to 5, Monday to Friday.", 0},
        {"src_qa2", "Do you ship abroad?", "Yes, we ship to 40 countries.", 0},
        {"src_qa3", "How much does it cost to ship abroad?", "Shipping abroad costs 5 euros.", 0}};
    knowledge_.chunks = {
        {"src_t1", "text", "Returns policy", std::nullopt,
         "Our shop was founded in 1990. Returns are accepted within 30 days of delivery. "
         "Refunds go back to the original payment method. We love cats.",
         2.0}};
  }

  std::pair<std::string, ReplyBlocks> ask(const std::string& message, ReplySettings settings = {},
                                          std::vector<HistoryMessage> history = {}) {
    ReplyRequest r;
    r.history = std::move(history);
    r.agent_id = "agt_1";
    if (settings.fallback_message.empty())
      settings.fallback_message = std::string(kDefaultFallbackMessage);
    auto agent = std::make_shared<AgentSettings>();
    agent->reply = settings;
    r.settings = agent;
    r.knowledge = &knowledge_;
    r.message = message;
    r.deadline_ms = clock_.now_ms() + 55'000;
    std::string text;
    pieces_ = 0;
    auto blocks = engine_.reply(r, [&](std::string_view p) {
      text += p;
      ++pieces_;
      return true;
    });
    EXPECT_TRUE(blocks.ok());
    return {text, blocks.ok() ? *blocks : ReplyBlocks{}};
  }

  ManualClock clock_;
  FakeRetriever knowledge_;
  RetrievalEngine engine_;
  int pieces_ = 0;
};

TEST_F(RetrievalEngineTest, SameQuestionAnswersWithThePair) {
  auto [text, blocks] = ask("what are your OPENING hours");
  EXPECT_EQ(text, "We are open 9 to 5, Monday to Friday.");
  // The pair is what the answer drew on.
  ASSERT_EQ(blocks.sources.size(), 1u);
  EXPECT_EQ(blocks.sources[0].source_id, "src_qa1");
  EXPECT_EQ(blocks.sources[0].title, "What are your opening hours?");
  EXPECT_EQ(blocks.sources[0].url, std::nullopt);
}

TEST_F(RetrievalEngineTest, CloseQuestionAnswersWithThePair) {
  EXPECT_EQ(ask("Can you ship things abroad?").first, "Yes, we ship to 40 countries.");
}

TEST_F(RetrievalEngineTest, FunctionWordsAloneDoNotMakeACloseQuestion) {
  // "what are your" is all the two questions share.
  EXPECT_EQ(ask("What are your colours?").first, kDefaultFallbackMessage);
}

TEST_F(RetrievalEngineTest, PluralsMatchSingulars) {
  EXPECT_EQ(ask("refund?").first, "Refunds go back to the original payment method.");
}

TEST_F(RetrievalEngineTest, AChunkFoundByItsTitleAnswersWithItsFirstSentences) {
  knowledge_.chunks = {
      {"src_t2", "text", "Warranty", std::string("https://example.com/w"),
       "Two years on all devices. Batteries one year. Keep the receipt. Nothing else.", 1.0}};
  auto [text, blocks] = ask("warranty");
  EXPECT_EQ(text, "Two years on all devices. Batteries one year. Keep the receipt.");
  ASSERT_EQ(blocks.sources.size(), 1u);
  EXPECT_EQ(blocks.sources[0].url, "https://example.com/w");
}

TEST_F(RetrievalEngineTest, SnippetAnswersWithItsBestSentencesInOrder) {
  auto [text, blocks] = ask("Are returns accepted and how do refunds work?");
  EXPECT_EQ(text,
            "Returns are accepted within 30 days of delivery. Refunds go back to the original "
            "payment method.");
  ASSERT_EQ(blocks.sources.size(), 1u);
  EXPECT_EQ(blocks.sources[0].title, "Returns policy");
  EXPECT_EQ(blocks.sources[0].url, std::nullopt);
  EXPECT_EQ(pieces_, 2);  // streamed sentence by sentence
}

TEST_F(RetrievalEngineTest, NothingRelevantGivesTheFallback) {
  EXPECT_EQ(ask("Tell me about quantum gravity").first, kDefaultFallbackMessage);
  ReplySettings s;
  s.fallback_message = "Ask our team.";
  EXPECT_EQ(ask("Tell me about quantum gravity", s).first, "Ask our team.");
}

TEST_F(RetrievalEngineTest, StopWordsAloneDoNotMatchASnippet) {
  EXPECT_EQ(ask("what is the").first, kDefaultFallbackMessage);
}

TEST_F(RetrievalEngineTest, FollowUpsComeFromOtherQuestionsWhenOn) {
  EXPECT_TRUE(ask("Do you ship abroad?").second.follow_ups.empty());
  ReplySettings s;
  s.follow_ups = true;
  auto blocks = ask("Do you ship abroad?", s).second;
  ASSERT_EQ(blocks.follow_ups.size(), 1u);
  EXPECT_EQ(blocks.follow_ups[0], "How much does it cost to ship abroad?");
}

TEST_F(RetrievalEngineTest, AFollowUpAlreadyAskedInTheConversationIsNotSuggestedAgain) {
  ReplySettings s;
  s.follow_ups = true;
  auto blocks = ask("Do you ship abroad?", s, {{"user", "how much does it COST to ship abroad"},
                                               {"assistant", "Shipping abroad costs 5 euros."}})
                    .second;
  EXPECT_TRUE(blocks.follow_ups.empty());
  // Said by the agent, not asked: still suggested.
  blocks = ask("Do you ship abroad?", s, {{"assistant", "How much does it cost to ship abroad?"}})
               .second;
  ASSERT_EQ(blocks.follow_ups.size(), 1u);
  EXPECT_EQ(blocks.follow_ups[0], "How much does it cost to ship abroad?");
}

TEST_F(RetrievalEngineTest, IsDeterministic) {
  auto first = ask("Are returns accepted?").first;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(ask("Are returns accepted?").first, first);
}

TEST(RetrievalEngineDelay, TimesOutAtTheDeadline) {
  SystemClock clock;
  RetrievalOptions o;
  o.delay_ms = 5'000;
  RetrievalEngine engine(clock, o);
  ReplyRequest r;
  r.message = "hi";
  r.deadline_ms = clock.now_ms() + 20;
  auto result = engine.reply(r, [](std::string_view) { return true; });
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kTimeout);
}

}  // namespace
}  // namespace parley
