// The `openai` engine's replies carry an outcome too: the model giving the agent's fallback
// message is `fallback`, an answer the knowledge barely supports is `low_confidence`, both in
// JSON and streamed replies; each makes its question a gap.
#include "chat_llm_support.h"

namespace parley::e2e {
namespace {

class GapsLlm : public LlmChatTest {};

TEST_F(GapsLlm, TheOpenAiEngineRepliesCarryTheirOutcome) {
  auto c = chat_setup(s(), kOpenAi);
  say({"Sorry, I don't have an answer to that yet. ",
       "Could you rephrase your question, or ask about something else?"});
  auto fallback = chat(s(), c, {{"message", "Can I bring my dog?"}});
  ASSERT_EQ(fallback.status, 200) << fallback.body;
  auto stored = show_conversation(s(), fallback.json()["conversationId"])["messages"];
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[1]["outcome"], "fallback");
  EXPECT_TRUE(stored[1]["confidence"].is_number());

  // Streamed: the same outcome is stored once the stream ends.
  say({"Arr, we open ", "at nine."});
  auto streamed = s().request({"POST",
                               "/api/v1/agents/" + c.agent + "/chat",
                               Json{{"message", "When do you open?"}, {"stream", true}}.dump(),
                               {bearer(c.key)}});
  ASSERT_EQ(streamed.status, 200) << streamed.body;
  std::string conv = streamed.header("x-conversation-id");
  ASSERT_FALSE(conv.empty()) << streamed.body;
  auto answered = show_conversation(s(), conv)["messages"];
  ASSERT_EQ(answered.size(), 2u);
  EXPECT_EQ(answered[1]["content"], "Arr, we open at nine.");
  // The agent has no knowledge: an answer is not backed by it.
  EXPECT_EQ(answered[1]["outcome"], "low_confidence");

  auto gaps = s().admin({"gaps", "list", "--agent", c.agent})["data"];
  EXPECT_EQ(gaps.size(), 2u) << gaps.dump();
}

}  // namespace
}  // namespace parley::e2e
