#include "engine/openai_engine.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

class FixedKnowledge final : public Retriever {
 public:
  std::vector<RetrievedChunk> search(std::string_view, const KnowledgeSettings&, std::string_view,
                                     size_t) const override {
    return {{"src_1", "text", std::string("Shipping"), std::string("https://example.com/shipping"),
             "We ship in 2 days.", 3.0}};
  }
  std::vector<QaMatch> match_qa(std::string_view, const KnowledgeSettings&, std::string_view,
                                size_t) const override {
    return {{"src_2", "Do you ship abroad?", "Yes, to the EU.", 0.8}};
  }
  KnowledgeAnswer answer(std::string_view, const KnowledgeSettings&, std::string_view, size_t) const override {
    return {};
  }
};

TEST(OpenAiPrompt, InstructionsKnowledgeHistoryAndMessage) {
  FixedKnowledge knowledge;
  ReplyRequest r;
  r.agent_id = "agt_1";
  r.knowledge = &knowledge;
  r.history = {{"user", "Hi"}, {"assistant", "Hello!"}};
  r.message = "How fast do you ship?";
  std::vector<SourceRef> cited;
  auto messages = build_prompt(r, "Be brief.", cited);
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[0].role, "system");
  EXPECT_EQ(messages[0].content.rfind("Be brief.", 0), 0u);
  EXPECT_NE(messages[0].content.find("[1] Question: Do you ship abroad?\nAnswer: Yes, to the EU."),
            std::string::npos);
  EXPECT_NE(messages[0].content.find("[2] Shipping\nWe ship in 2 days."), std::string::npos);
  // Only from the knowledge, or the agent's fallback message word for word.
  EXPECT_NE(messages[0].content.find("Answer only from the knowledge above. When it does not answer the question, "
                                     "reply with exactly this and nothing else: " +
                                     std::string(kDefaultFallbackMessage)),
            std::string::npos);
  EXPECT_EQ(messages[1].role, "user");
  EXPECT_EQ(messages[2].role, "assistant");
  EXPECT_EQ(messages[3].content, "How fast do you ship?");
  ASSERT_EQ(cited.size(), 2u);
  EXPECT_EQ(cited[0].title, "Do you ship abroad?");
  EXPECT_FALSE(cited[0].url.has_value());
  EXPECT_EQ(cited[1].url, "https://example.com/shipping");
}

TEST(OpenAiPrompt, DefaultInstructionsWithoutKnowledge) {
  ReplyRequest r;
  r.message = "Hi";
  std::vector<SourceRef> cited;
  auto messages = build_prompt(r, "", cited);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_FALSE(messages[0].content.empty());
  EXPECT_EQ(messages[0].content.find("Knowledge"), std::string::npos);
  EXPECT_TRUE(cited.empty());
}

}  // namespace
}  // namespace parley
