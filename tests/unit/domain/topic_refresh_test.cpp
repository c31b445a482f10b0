// refresh_topics counts only the messages added since its last run; after every turn of a long
// conversation its stored topics and sentiment must equal analyze_topics over the whole
// conversation (the definition), including when the setting is switched on midway.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "core/json.h"
#include "domain/topic_analysis.h"

namespace parley {
namespace {

class TopicRefresh : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_topic_refresh_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
    ASSERT_TRUE(db_->write([](Connection& c) {
                  return c.execute_script(
                      "INSERT INTO accounts (id, name, plan, created_at, updated_at) VALUES "
                      "('acc_t', 't', 'pro', 0, 0);"
                      "INSERT INTO agents (id, account_id, name, created_at, updated_at) "
                      "VALUES ('agt_t', 'acc_t', 't', 0, 0);"
                      "INSERT INTO conversations (id, agent_id, account_id, session_id, channel, "
                      "created_at, last_activity_at, message_count) "
                      "VALUES ('cnv_t', 'agt_t', 'acc_t', 'ses_t', 'api', 0, 0, 0)");
                }).ok());
    agent_.id = "agt_t";
    agent_.account_id = "acc_t";
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  void turn(const std::string& role, const std::string& content) {
    ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                  MessageRecord m;
                  m.id = "msg_" + std::to_string(++n_);
                  m.conversation_id = "cnv_t";
                  m.role = role;
                  m.content = content;
                  auto appended = ConversationRepo::append_message(c, m);
                  if (!appended.ok()) return appended.error();
                  return refresh_topics(c, parse_agent_settings(agent_.settings), "cnv_t");
                }).ok());
  }
  void expect_matches_whole_conversation() {
    auto& c = db_->read()->get();
    auto all = ConversationRepo::messages(c, "cnv_t");
    ASSERT_TRUE(all.ok());
    TopicAnalysis want = analyze_topics(*all);
    std::string topics;
    std::optional<std::string> sentiment;
    ASSERT_TRUE(c.query("SELECT topics, sentiment FROM conversations WHERE id = 'cnv_t'", {},
                        [&](const Row& r) {
                          topics = r.text(0);
                          sentiment = r.opt_text(1);
                        }).ok());
    JsonWriter w;
    w.begin_array();
    for (const auto& t : want.topics) w.string(t);
    w.end_array();
    EXPECT_EQ(topics, w.view()) << "after message " << n_;
    EXPECT_EQ(sentiment, want.sentiment) << "after message " << n_;
  }

  std::string dir_;
  std::unique_ptr<Database> db_;
  AgentRecord agent_;
  int n_ = 0;
};

const char* kLines[] = {
    "My invoice shows a double charge, I am very unhappy",
    "The billing page is slow and the invoice is wrong",
    "Thanks, that was helpful",
    "Shipping to Berlin takes how long? shipping shipping",
    "not bad, the refund arrived",
    "billing billing invoice address address address",
    "Great, perfect, thank you",
    "I still cannot log in, password reset email never arrives",
};

TEST_F(TopicRefresh, EachTurnMatchesTheWholeConversationsAnalysis) {
  agent_.settings = R"({"topicAnalysis": true})";
  turn("assistant", "Hello, how can I help?");
  expect_matches_whole_conversation();
  for (int i = 0; i < 60; ++i) {
    turn("user", kLines[(i * 5) % 8] + std::string(" item") + std::to_string(i % 7));
    expect_matches_whole_conversation();
    turn("assistant", "invoice invoice invoice shipping");
    expect_matches_whole_conversation();
  }
}

TEST_F(TopicRefresh, SwitchedOnMidwayCountsTheEarlierMessagesToo) {
  for (int i = 0; i < 8; ++i) turn("user", kLines[i]);
  agent_.settings = R"({"topicAnalysis": true})";
  turn("user", "shipping again");
  expect_matches_whole_conversation();
}

}  // namespace
}  // namespace parley
