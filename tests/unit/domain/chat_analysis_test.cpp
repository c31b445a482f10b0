// One analysis and one decision per chat turn: a turn through the real engine router, retrieval
// engine and knowledge index, on an agent with every intent configured (live chat, buttons,
// products, a form, a lead form, booking, contact details, topics, gaps), passes over its message
// with the text analyser exactly once; the agent's keywords are compiled when its settings load,
// not per turn. Counted with the analyser's pass counter (text/analyzer.h).
#include <gtest/gtest.h>

#include <filesystem>

#include "domain/accounts.h"
#include "domain/agent_cache.h"
#include "domain/agents.h"
#include "domain/chat.h"
#include "engine/engine_router.h"
#include "engine/retrieval_engine.h"
#include "knowledge/memory_retriever.h"
#include "store/conversation_repo.h"

namespace parley {
namespace {

constexpr const char* kEveryIntent = R"({
  "liveChat": true, "saveContactDetails": true, "topicAnalysis": true,
  "buttons": [{"label": "See pricing", "url": "https://example.com/pricing", "keywords": ["price"]}],
  "products": [{"name": "Blue Jacket", "url": "https://example.com/jacket", "keywords": ["coat"]}],
  "forms": [{"id": "form_quote", "name": "Request a quote", "keywords": ["quote"]}],
  "leadForm": {"keywords": ["call me back"]},
  "booking": {"keywords": ["book a visit"], "availability": {"mon": [["09:00", "12:00"]]}}})";

class ChatAnalysisTest : public ::testing::Test {
 protected:
  ChatAnalysisTest()
      : dir_(std::filesystem::temp_directory_path() /
             ("parley-chat-analysis-" + std::to_string(::getpid()) + "-" +
              std::to_string(counter_++))),
        clock_(1'795'345'572'123),
        retrieval_(clock_, RetrievalOptions{}),
        openai_(clock_, RetrievalOptions{}),
        router_(clock_, retrieval_, openai_) {
    std::filesystem::create_directories(dir_);
    db_ = std::move(open_database({"sqlite:" + (dir_ / "db.sqlite").string(), Durability::kNormal}))
              .value();
    agents_ = std::make_unique<AgentCache>(*db_);
    knowledge_.add({"src_1", "text", "Returns", std::nullopt,
                    "Returns are accepted within 30 days of delivery.", "", ""});
    knowledge_.add({"src_q", "qa", std::nullopt, std::nullopt, "", "How long does shipping take?",
                    "Two to three days."});
  }
  ~ChatAnalysisTest() override {
    agents_.reset();
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::string agent_with(const char* settings) {
    Services s{*db_, clock_, random_};
    account_ = create_account(s, "Acme", "starter")->id;
    return create_agent(s, account_, "Helper", false, settings)->id;
  }

  Result<ChatReply> send(const std::string& agent, std::string message) {
    ChatServices s{*db_, clock_, random_, router_, *retriever_, ChatConfig{}};
    s.agents = agents_.get();
    return chat(s, account_, {.agent_id = agent, .message = std::move(message)});
  }

  // The analyser's passes during one turn.
  uint64_t passes_of(const std::string& agent, std::string message) {
    uint64_t before = Analyzer::passes();
    auto reply = send(agent, std::move(message));
    EXPECT_TRUE(reply.ok()) << (reply.ok() ? "" : reply.error().message);
    return Analyzer::passes() - before;
  }

  static inline int counter_ = 0;
  std::filesystem::path dir_;
  ManualClock clock_;
  SecureRandom random_;
  RetrievalEngine retrieval_;
  RetrievalEngine openai_;  // never reached: the agents here use the built-in engine
  EngineRouter router_;
  MemoryRetriever knowledge_;
  MemoryRetriever french_knowledge_{KnowledgeSettings{.language = "fr"}};
  const Retriever* retriever_ = &knowledge_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<AgentCache> agents_;
  std::string account_;
};

TEST_F(ChatAnalysisTest, ATurnWithEveryIntentAnalysesItsMessageOnce) {
  std::string agent = agent_with(kEveryIntent);
  ASSERT_TRUE(send(agent, "hello").ok());  // loads the agent and compiles its keywords
  // A fallback (a gap is recorded), topics counted, contact details saved, every matcher asked.
  EXPECT_EQ(passes_of(agent, "Is there a price for a coat? Call me back on ann@example.com"), 1u);
  // An answered question with its offers.
  EXPECT_EQ(passes_of(agent, "When are returns accepted? I need a quote"), 1u);
}

TEST_F(ChatAnalysisTest, TheIntentsOfTheOnePassReachTheReplyAndTheCommit) {
  std::string agent = agent_with(kEveryIntent);
  auto reply =
      send(agent, "What is the price of a coat? I want a quote, call me back: ann@example.com");
  ASSERT_TRUE(reply.ok());
  ASSERT_EQ(reply->blocks.buttons.size(), 1u);
  EXPECT_EQ(reply->blocks.buttons[0].label, "See pricing");
  ASSERT_EQ(reply->blocks.products.size(), 1u);
  EXPECT_EQ(reply->blocks.products[0].name, "Blue Jacket");
  ASSERT_TRUE(reply->blocks.form.has_value());
  EXPECT_EQ(reply->blocks.form->form_id, "form_quote");
  EXPECT_TRUE(reply->blocks.lead_form.has_value());
  EXPECT_FALSE(reply->blocks.booking.has_value());
  auto person = send(agent, "Can I talk to a human?");
  ASSERT_TRUE(person.ok());
  EXPECT_EQ(person->live_chat, "offered");
  auto c = db_->read();
  ASSERT_TRUE(c.ok());
  std::vector<std::string> emails;
  ASSERT_TRUE(
      c->get()
          .query("SELECT email FROM leads", {}, [&](const Row& r) { emails.push_back(r.text(0)); })
          .ok());
  EXPECT_EQ(emails, std::vector<std::string>{"ann@example.com"});
  auto conv = ConversationRepo::find(c->get(), account_, reply->conversation_id);
  ASSERT_TRUE(conv.ok() && conv->has_value());
  EXPECT_NE((*conv)->topics.find("price"), std::string::npos);
}

TEST_F(ChatAnalysisTest, AnotherLanguageSplitsOnceAndAddsTheEnglishForms) {
  std::string agent = agent_with(R"({"language": "fr", "buttons": [{"label": "Tarifs",
      "url": "https://example.com/tarifs", "keywords": ["prix"]}]})");
  retriever_ = &french_knowledge_;  // the index of a French agent analyses French
  ASSERT_TRUE(send(agent, "bonjour").ok());
  // The French forms the knowledge is asked with, then the English forms of the same words the
  // intent phrases are compared with: two passes over one split.
  EXPECT_EQ(passes_of(agent, "Quel est le prix ?"), 2u);
  auto reply = send(agent, "Quel est le prix ?");
  ASSERT_TRUE(reply.ok());
  ASSERT_EQ(reply->blocks.buttons.size(), 1u);
}

TEST_F(ChatAnalysisTest, KeywordsAreCompiledOnceWhenTheSettingsLoad) {
  std::string agent = agent_with(kEveryIntent);
  auto first = agents_->get(account_, agent);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(send(agent, "hello").ok());  // a write: the cache reads the agent again
  auto again = agents_->get(account_, agent);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->keywords.get(), (*first)->keywords.get());
  EXPECT_EQ(&(*again)->keywords->settings(), (*again)->settings.get());
  ASSERT_EQ((*first)->keywords->buttons().size(), 1u);
  EXPECT_EQ((*first)->keywords->buttons()[0].keywords,
            (std::vector<std::vector<std::string>>{{"price"}}));
  EXPECT_EQ((*first)->keywords->contact_phrases(),
            (std::vector<std::vector<std::string>>{{"call", "me", "back"}}));
}

}  // namespace
}  // namespace parley
