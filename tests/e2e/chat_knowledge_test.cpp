// Chat replies from trained knowledge: a Q&A pair (same and close question), a text snippet's
// best sentences, sources and follow-ups on and off, the same text streamed, and what is stored.
#include <chrono>
#include <thread>

#include "chat_support.h"

namespace parley::e2e {
namespace {

class ChatKnowledge : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
  const Server& s() { return *server_; }

  void add_qa(const ChatSetup& c, const std::string& q, const std::string& a) {
    auto r = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                      Json{{"type", "qa"}, {"question", q}, {"answer", a}}.dump());
    ASSERT_LT(r.status, 300) << r.body;
  }
  void add_text(const ChatSetup& c, const std::string& title, const std::string& content) {
    auto r = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                      Json{{"type", "text"}, {"title", title}, {"content", content}}.dump());
    ASSERT_LT(r.status, 300) << r.body;
  }
  void wait_trained(const ChatSetup& c) {
    for (int i = 0; i < 500; ++i) {
      auto r = s().get("/api/v1/agents/" + c.agent + "/sources", c.key);
      if (r.status == 200 && r.json()["training"]["done"] == true) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "training did not finish";
  }
  // An agent that knows a few Q&A pairs and one text snippet.
  ChatSetup trained(const std::string& settings = "") {
    auto c = chat_setup(s(), settings);
    add_qa(c, "What are your opening hours?", "We are open 9 to 5, Monday to Friday.");
    add_qa(c, "Do you ship abroad?", "Yes, we ship to 40 countries.");
    add_qa(c, "How much does it cost to ship abroad?", "Shipping abroad costs 5 euros.");
    add_text(
        c, "Returns policy",
        "Our shop was founded in 1990 in Lyon. Returns are accepted within 30 days of delivery. "
        "Refunds go back to the original payment method. The cat of the shop is called Felix.");
    wait_trained(c);
    return c;
  }
};
Server* ChatKnowledge::server_ = nullptr;

TEST_F(ChatKnowledge, SameQuestionIsAnsweredFromItsPair) {
  auto c = trained();
  auto j = chat(s(), c, {{"message", "what are your OPENING hours"}}).json();
  EXPECT_EQ(j["reply"], "We are open 9 to 5, Monday to Friday.");
  EXPECT_EQ(j["sources"], Json::array());
  EXPECT_EQ(j["followUps"], Json::array());
}

TEST_F(ChatKnowledge, CloseQuestionIsAnsweredFromItsPair) {
  auto c = trained();
  EXPECT_EQ(chat(s(), c, {{"message", "Can you ship things abroad?"}}).json()["reply"],
            "Yes, we ship to 40 countries.");
  // Function words alone do not make a close question.
  EXPECT_EQ(chat(s(), c, {{"message", "What are your colours?"}}).json()["reply"], kDefaultFallback);
}

TEST_F(ChatKnowledge, SnippetAnswersWithItsBestSentences) {
  auto c = trained();
  auto j = chat(s(), c, {{"message", "Are returns accepted, and how are refunds paid?"}}).json();
  EXPECT_EQ(j["reply"],
            "Returns are accepted within 30 days of delivery. Refunds go back to the original "
            "payment method.");
  EXPECT_EQ(j["sources"], Json::array());  // showSources is off by default
}

TEST_F(ChatKnowledge, NothingRelevantFallsBack) {
  auto c = trained(R"({"fallbackMessage": "Our team will answer by email."})");
  EXPECT_EQ(chat(s(), c, {{"message", "Explain quantum chromodynamics"}}).json()["reply"],
            "Our team will answer by email.");
}

TEST_F(ChatKnowledge, SourcesShownWhenOnAndStoredWithTheMessage) {
  auto c = trained(R"({"showSources": true})");
  auto j = chat(s(), c, {{"message", "Are returns accepted?"}}).json();
  EXPECT_EQ(j["reply"], "Returns are accepted within 30 days of delivery.");
  EXPECT_EQ(j["sources"], (Json::array({{{"title", "Returns policy"}, {"url", nullptr}}})));
  auto conv = show_conversation(s(), j["conversationId"]);
  EXPECT_EQ(conv["messages"][1]["sources"], j["sources"]);
  EXPECT_EQ(conv["messages"][0]["sources"], Json::array());
  // A Q&A answer names the pair it drew on.
  EXPECT_EQ(chat(s(), c, {{"message", "Do you ship abroad?"}}).json()["sources"],
            (Json::array({{{"title", "Do you ship abroad?"}, {"url", nullptr}}})));
}

TEST_F(ChatKnowledge, ACitedSourceWithoutTitleOrAddressHasNullForBoth) {
  auto c = chat_setup(s(), R"({"showSources": true})");
  auto r = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                    Json{{"type", "text"}, {"content", "Parcels leave the depot every day at noon."}}.dump());
  ASSERT_EQ(r.status, 201) << r.body;
  wait_trained(c);
  auto j = chat(s(), c, {{"message", "When do parcels leave the depot?"}}).json();
  EXPECT_EQ(j["sources"], (Json::array({{{"title", nullptr}, {"url", nullptr}}}))) << j.dump();
  EXPECT_EQ(show_conversation(s(), j["conversationId"])["messages"][1]["sources"], j["sources"]);
}

TEST_F(ChatKnowledge, FollowUpsWhenOn) {
  auto off = trained();
  EXPECT_EQ(chat(s(), off, {{"message", "Do you ship abroad?"}}).json()["followUps"],
            Json::array());
  auto on = trained(R"({"followUps": true})");
  auto j = chat(s(), on, {{"message", "Do you ship abroad?"}}).json();
  EXPECT_EQ(j["reply"], "Yes, we ship to 40 countries.");
  EXPECT_EQ(j["followUps"], Json::array({"How much does it cost to ship abroad?"}));
  // A question already asked in the conversation is not suggested again.
  auto k = chat(s(), on,
                {{"message", "How much does it cost to ship abroad?"},
                 {"conversationId", j["conversationId"]}})
               .json();
  EXPECT_EQ(k["reply"], "Shipping abroad costs 5 euros.");
  EXPECT_EQ(k["followUps"], Json::array());
}

TEST_F(ChatKnowledge, StreamedTextIsTheSameReply) {
  auto c = trained(R"({"showSources": true})");
  std::string q = "Are returns accepted, and how are refunds paid?";
  auto j = chat(s(), c, {{"message", q}}).json();
  auto r = chat(s(), c, {{"message", q}, {"stream", true}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body, j["reply"]);
  // Blocks are not streamed; they are read from the conversation afterwards.
  auto conv = show_conversation(s(), r.header("x-conversation-id"));
  ASSERT_EQ(conv["messages"].size(), 2u);
  EXPECT_EQ(conv["messages"][1]["content"], j["reply"]);
  EXPECT_EQ(conv["messages"][1]["sources"], j["sources"]);
}

TEST_F(ChatKnowledge, RepliesAreDeterministic) {
  auto c = trained();
  std::string first = chat(s(), c, {{"message", "Tell me about returns"}}).json()["reply"];
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(chat(s(), c, {{"message", "Tell me about returns"}}).json()["reply"], first);
}

}  // namespace
}  // namespace parley::e2e
