#include "domain/topic_analysis.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

MessageRecord msg(std::string role, std::string content) {
  MessageRecord m;
  m.role = std::move(role);
  m.content = std::move(content);
  return m;
}

TEST(TopicAnalysis, TopWordsOfVisitorMessagesByCountThenFirstAppearance) {
  auto a =
      analyze_topics({msg("user", "Billing question: my invoice shows the wrong billing address"),
                      msg("assistant", "Invoice invoice invoice invoice"),
                      msg("user", "Can you fix the invoice address?")});
  EXPECT_EQ(a.topics, (std::vector<std::string>{"billing", "invoice", "address"}));
  EXPECT_EQ(a.sentiment, "negative");  // "wrong"
}

TEST(TopicAnalysis, SentimentCountsWordsAndNegations) {
  EXPECT_EQ(analyze_topics({msg("user", "Great service, thanks!")}).sentiment, "positive");
  EXPECT_EQ(analyze_topics({msg("user", "This is not good")}).sentiment, "negative");
  EXPECT_EQ(analyze_topics({msg("user", "Don't worry, it's not bad")}).sentiment, "positive");
  EXPECT_EQ(analyze_topics({msg("user", "Where is the shop?")}).sentiment, "neutral");
}

TEST(TopicAnalysis, WordsAndStopWordsAreTheTextAnalysersOfTheAgentsLanguage) {
  // English: the analyser's stop words ("please", "tell", "about"), diacritics folded as the
  // index folds them.
  auto en = analyze_topics({msg("user", "Please tell me about the CAFÉ opening times, café!")});
  EXPECT_EQ(en.topics, (std::vector<std::string>{"cafe", "opening", "times"}));
  // French: its own stop words and elisions; every script is split, not only ASCII.
  const Analyzer* fr = Analyzer::for_language("fr");
  ASSERT_NE(fr, nullptr);
  auto a =
      analyze_topics({msg("user", "Livraison à Zürich ? LIVRAISON rapide, s'il vous plaît")}, *fr);
  EXPECT_EQ(a.topics, (std::vector<std::string>{"livraison", "zürich", "rapide"}));
  // Ideographs make words of two characters.
  auto zh = analyze_topics({msg("user", "退货政策 退货政策")}, *Analyzer::for_language("zh"));
  EXPECT_FALSE(zh.topics.empty());
}

TEST(TopicAnalysis, ATurnsOwnMessageIsReadFromItsAnalysis) {
  MessageRecord m = msg("user", "shipping shipping refund");
  m.id = "msg_1";
  AnalyzedText analyzed(m.content, Analyzer::english());
  uint64_t before = Analyzer::passes();
  auto d = count_topics(TopicState{}, {m}, Analyzer::english(), TopicMessage{"msg_1", &analyzed});
  EXPECT_EQ(Analyzer::passes(), before);  // no second pass over the message
  ASSERT_EQ(d.words.size(), 1u);
  EXPECT_EQ(d.words[0].word, "shipping");
  EXPECT_EQ(d.words[0].count, 2);
  EXPECT_EQ(d.state.negative, 1);  // "refund"
}

TEST(TopicAnalysis, NoVisitorMessagesMeansNoTopicsAndNoSentiment) {
  auto a = analyze_topics({msg("assistant", "Hello, how can I help?")});
  EXPECT_TRUE(a.topics.empty());
  EXPECT_FALSE(a.sentiment.has_value());
}

TEST(TopicAnalysis, EnabledOnlyByTheSetting) {
  AgentRecord agent;
  EXPECT_FALSE(topic_analysis_enabled(parse_agent_settings(agent.settings)));
  agent.settings = R"({"topicAnalysis": true})";
  EXPECT_TRUE(topic_analysis_enabled(parse_agent_settings(agent.settings)));
  agent.settings = R"({"topicAnalysis": false})";
  EXPECT_FALSE(topic_analysis_enabled(parse_agent_settings(agent.settings)));
}

}  // namespace
}  // namespace parley
