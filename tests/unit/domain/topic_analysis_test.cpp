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
