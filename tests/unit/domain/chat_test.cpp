// The chat flow on a real SQLite database with a recording engine and a manual clock: history
// window, continuity, limits by month and hour (checked from memory, as `serve` does on SQLite),
// timeout leaving nothing stored.
#include "domain/chat.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "../engine/fake_retriever.h"
#include "domain/accounts.h"
#include "domain/agents.h"
#include "domain/usage.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"

namespace parley {
namespace {

// Replies "reply N" and remembers what it was given; may move the clock to simulate slowness.
class RecordingEngine final : public ReplyEngine {
 public:
  explicit RecordingEngine(ManualClock& clock) : clock_(clock) {}
  Result<ReplyBlocks> reply(const ReplyRequest& r, const TextSink& sink) const override {
    last_history = r.history;
    clock_.advance_ms(takes_ms);
    sink("reply ");
    sink(std::to_string(++calls));
    return ReplyBlocks{};
  }
  mutable std::vector<HistoryMessage> last_history;
  mutable int calls = 0;
  int64_t takes_ms = 1;

 private:
  ManualClock& clock_;
};

class ChatFlowTest : public ::testing::Test {
 protected:
  ChatFlowTest()
      : dir_(std::filesystem::temp_directory_path() /
             ("parley-chat-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))),
        clock_(1'795'345'572'123),  // 2026-11-22T11:06:12.123Z
        engine_(clock_) {
    std::filesystem::create_directories(dir_);
    db_ = std::move(open_database({"sqlite:" + (dir_ / "db.sqlite").string(), Durability::kNormal}))
              .value();
    Services s{*db_, clock_, random_};
    account_ = create_account(s, "Acme", "starter")->id;
    agent_ = create_agent(s, account_, "Helper", false, "")->id;
  }
  ~ChatFlowTest() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  Result<ChatReply> send(ChatRequest r) {
    if (r.agent_id.empty()) r.agent_id = agent_;
    ChatServices s{*db_, clock_, random_, engine_, knowledge_, config_};
    s.usage = usage_;  // as `serve` runs on SQLite: the limits are checked from memory
    return chat(s, account_, r);
  }

  static inline int counter_ = 0;
  std::filesystem::path dir_;
  ManualClock clock_;
  SecureRandom random_;
  RecordingEngine engine_;
  FakeRetriever knowledge_;
  ChatConfig config_;
  std::shared_ptr<UsageCounts> usage_ = std::make_shared<UsageCounts>();
  std::unique_ptr<Database> db_;
  std::string account_, agent_;
};

TEST_F(ChatFlowTest, EngineSeesExactlyTheLast40Messages) {
  auto first = send({.message = "message 1"});
  ASSERT_TRUE(first.ok());
  for (int i = 2; i <= 25; ++i) {
    ASSERT_TRUE(
        send({.message = "message " + std::to_string(i), .conversation_id = first->conversation_id})
            .ok());
  }
  EXPECT_EQ(engine_.last_history.size(), 40u);  // 48 stored before the 25th message
  ASSERT_TRUE(send({.message = "message 26", .conversation_id = first->conversation_id}).ok());
  ASSERT_EQ(engine_.last_history.size(), 40u);
  EXPECT_EQ(engine_.last_history.front().content, "message 6");
  EXPECT_EQ(engine_.last_history.front().role, "user");
  EXPECT_EQ(engine_.last_history.back().content, "reply 25");
  EXPECT_EQ(engine_.last_history.back().role, "assistant");
}

TEST_F(ChatFlowTest, SessionIdContinuesAndIsDigested) {
  auto a = send({.message = "hi", .session_id = "user-42"});
  auto b = send({.message = "again", .session_id = "user-42"});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->conversation_id, b->conversation_id);
  EXPECT_EQ(a->session_id, api_session_id(agent_, "user-42"));
  EXPECT_EQ(a->session_id.rfind("svcapi_", 0), 0u);
  auto c = send({.message = "by reply session", .session_id = a->session_id});
  EXPECT_EQ(c->conversation_id, a->conversation_id);
  auto d = send({.message = "new"});
  EXPECT_NE(d->conversation_id, a->conversation_id);
}

TEST_F(ChatFlowTest, WidgetConversationCannotBeContinued) {
  ConversationRecord w;
  w.id = "cnv_widget";
  w.agent_id = agent_;
  w.account_id = account_;
  w.session_id = "widget-session";
  w.channel = "widget";
  ASSERT_TRUE(db_->write([&](Connection& c) { return ConversationRepo::insert(c, w); }).ok());
  auto r = send({.message = "hi", .conversation_id = "cnv_widget"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(r.error().message.find("'conversationId'"), std::string::npos);
}

TEST_F(ChatFlowTest, PlanMessagesRunOutAndComeBackNextMonth) {
  Services s{*db_, clock_, random_};
  ASSERT_TRUE(set_account_limits(s, account_, R"({"messagesPerMonth": 2})").ok());
  ASSERT_TRUE(send({.message = "1"}).ok());
  ASSERT_TRUE(send({.message = "2"}).ok());
  auto r = send({.message = "3"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kMessageLimitReached);
  clock_.advance_ms(10LL * 24 * 3600 * 1000);  // December
  EXPECT_TRUE(send({.message = "4"}).ok());
}

TEST_F(ChatFlowTest, BusyBeyondTheHourlyLimitUntilTheNextHour) {
  config_.replies_per_agent_hour = 2;
  ASSERT_TRUE(send({.message = "1"}).ok());
  ASSERT_TRUE(send({.message = "2"}).ok());
  auto r = send({.message = "3"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kAgentBusy);
  clock_.advance_ms(3600 * 1000);
  EXPECT_TRUE(send({.message = "4"}).ok());
}

TEST_F(ChatFlowTest, RunsThatTimeOutCountOnTheHourAndBusyTellsWhenToRetry) {
  config_.replies_per_agent_hour = 2;
  config_.timeout_ms = 1000;
  engine_.takes_ms = 1001;
  for (int i = 0; i < 2; ++i) EXPECT_EQ(send({.message = "slow"}).error().code, ErrorCode::kTimeout);
  // The runs are counted behind; a write queued after them has them committed.
  ASSERT_TRUE(db_->write([](Connection&) -> Result<void> { return {}; }).ok());
  engine_.takes_ms = 1;
  auto r = send({.message = "fast"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kAgentBusy);
  // 11:06:14.125 now: 3225.875 s to the next hour.
  EXPECT_EQ(r.error().retry_after_s, 3226);
  EXPECT_EQ(engine_.calls, 2);
}

TEST_F(ChatFlowTest, AStoredTurnCountsItsRunOnceWithItsExchange) {
  ASSERT_TRUE(send({.message = "1"}).ok());
  ASSERT_TRUE(send({.message = "2"}).ok());
  // In the turn's own transaction: nothing is left to be written behind.
  EXPECT_EQ(*usage_count(db_->read()->get(), agent_, hour_period(clock_.now_ms())), 2);
}

TEST_F(ChatFlowTest, ARunThePlanRefusesInTheWriteStillCountsOnTheHour) {
  config_.replies_per_agent_hour = 1;
  ChatServices s{*db_, clock_, random_, engine_, knowledge_, config_};
  {
    auto turn = ChatTurn::prepare(s, account_, {.agent_id = agent_, .message = "1"});
    ASSERT_TRUE(turn.ok()) << turn.error().message;
    // The plan's messages run out while the engine writes.
    ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                     PARLEY_TRY(c.execute("INSERT INTO usage_counters (scope_id, period, count)"
                                          " VALUES ($1, $2, 1000000)",
                                          {account_, month_period(clock_.now_ms())}));
                     return {};
                   }).ok());
    ASSERT_TRUE(turn->run([](std::string_view) { return true; }).ok());
    auto stored = turn->commit();
    ASSERT_FALSE(stored.ok());
    EXPECT_EQ(stored.error().code, ErrorCode::kMessageLimitReached);
  }
  // Counted behind when the turn ended; a write queued after it has it committed.
  ASSERT_TRUE(db_->write([](Connection&) -> Result<void> { return {}; }).ok());
  EXPECT_EQ(*usage_count(db_->read()->get(), agent_, hour_period(clock_.now_ms())), 1);
  EXPECT_EQ(engine_.calls, 1);
}

TEST_F(ChatFlowTest, TimeoutStoresNothing) {
  config_.timeout_ms = 1000;
  engine_.takes_ms = 1001;
  auto r = send({.message = "slow", .session_id = "s1"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kTimeout);
  auto agent = AgentRepo::find_any(db_->read()->get(), agent_);
  EXPECT_EQ((*agent)->conversations_count, 0);
  EXPECT_EQ((*agent)->messages_count, 0);
}

TEST(ReplyTimeout, NamesTheTimeoutInSeconds) {
  EXPECT_EQ(reply_timeout(55'000).code, ErrorCode::kTimeout);
  EXPECT_EQ(reply_timeout(55'000).message, "The reply took longer than 55 seconds.");
  EXPECT_EQ(reply_timeout(1'500).message, "The reply took longer than 1.5 seconds.");
  EXPECT_EQ(reply_timeout(250).message, "The reply took longer than 0.2 seconds.");
}

TEST_F(ChatFlowTest, ARequestThatWaitedPastItsDeadlineIsRefusedBeforeAnythingIsCounted) {
  config_.timeout_ms = 1000;
  config_.replies_per_agent_hour = 1;
  auto r = send({.message = "hello", .session_id = "s1", .waited_ms = 1000});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kTimeout);
  EXPECT_EQ(r.error().message, "The reply took longer than 1 second.");
  EXPECT_EQ(engine_.calls, 0);
  // Not counted on the agent's hour: the next request gets its one engine run.
  ASSERT_TRUE(db_->write([](Connection&) -> Result<void> { return {}; }).ok());
  auto next = send({.message = "hello", .session_id = "s1", .waited_ms = 999});
  ASSERT_TRUE(next.ok()) << next.error().message;
  EXPECT_EQ(engine_.calls, 1);
  auto agent = AgentRepo::find_any(db_->read()->get(), agent_);
  EXPECT_EQ((*agent)->messages_count, 2);
}

TEST_F(ChatFlowTest, ValidatesFields) {
  EXPECT_EQ(send({.message = "  \n"}).error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(send({.message = std::string(10'001, 'a')}).error().code, ErrorCode::kInvalidRequest);
  EXPECT_TRUE(send({.message = std::string(10'000, 'a')}).ok());
  EXPECT_EQ(send({.message = "x", .session_id = std::string(101, 's')}).error().code,
            ErrorCode::kInvalidRequest);
  EXPECT_EQ(send({.message = "x", .time_zone = "Mars/Olympus"}).error().code,
            ErrorCode::kInvalidRequest);
  EXPECT_TRUE(send({.message = "x", .time_zone = "Europe/Paris"}).ok());
}

TEST_F(ChatFlowTest, ContactDetailsSaveOneLeadWithOneOutboxEvent) {
  Services s{*db_, clock_, random_};
  AgentChanges changes;
  changes.settings_update = R"({"saveContactDetails": true})";
  ASSERT_TRUE(update_agent(s, agent_, changes).ok());
  auto first = send({.message = "Reach me at Ann@Example.com please", .session_id = "ann"});
  ASSERT_TRUE(first.ok());
  int64_t first_at = clock_.now_ms();
  clock_.advance_ms(60'000);
  ASSERT_TRUE(send({.message = "again ann@example.com", .session_id = "ann"}).ok());
  struct Lead {
    std::string email, source, conversation;
    int64_t collected, last_seen, count;
  };
  std::vector<Lead> leads;
  ASSERT_TRUE(db_->read()->get()
                  .query("SELECT email, source, conversation_id, collected_at, last_seen_at, "
                         "submission_count FROM leads",
                         {},
                         [&](const Row& r) {
                           leads.push_back({r.text(0), r.text(1), r.text(2), r.int64(3), r.int64(4),
                                            r.int64(5)});
                         })
                  .ok());
  ASSERT_EQ(leads.size(), 1u);
  EXPECT_EQ(leads[0].email, "ann@example.com");
  EXPECT_EQ(leads[0].source, "chat");
  EXPECT_EQ(leads[0].conversation, first->conversation_id);
  EXPECT_LE(leads[0].collected, first_at);
  EXPECT_EQ(leads[0].last_seen, clock_.now_ms() - 1);  // the second message's arrival
  EXPECT_EQ(leads[0].count, 2);
  auto events =
      db_->read()->get().query_int("SELECT COUNT(*) FROM event_outbox WHERE event = 'lead.created'", {});
  EXPECT_EQ(events->value_or(0), 1);
}

TEST_F(ChatFlowTest, TakenOverConversationIsPausedAndUsesNoMessage) {
  auto first = send({.message = "hi"});
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                   PARLEY_ASSIGN_OR_RETURN(auto conv,
                                           find_conversation_any(c, first->conversation_id));
                   conv->taken_over_by = "Maria";
                   return ConversationRepo::update(c, *conv);
                 })
                  .ok());
  int calls = engine_.calls;
  Services s{*db_, clock_, random_};
  ASSERT_TRUE(set_account_limits(s, account_, R"({"messagesPerMonth": 1})").ok());  // used up
  auto r = send({.message = "anyone?", .conversation_id = first->conversation_id});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->reply, "");
  EXPECT_EQ(r->live_chat, "paused");
  EXPECT_EQ(engine_.calls, calls);
  EXPECT_EQ(*usage_count(db_->read()->get(), account_, month_period(clock_.now_ms())), 1);
  auto messages = ConversationRepo::messages(db_->read()->get(), first->conversation_id);
  ASSERT_EQ(messages->size(), 3u);
  EXPECT_EQ(messages->back().content, "anyone?");
}

TEST(UsagePeriods, AreUtcMonthsAndHours) {
  EXPECT_EQ(month_period(1'795'345'572'123), "m:2026-11");
  EXPECT_EQ(hour_period(1'795'345'572'123), "h:2026-11-22T11");
}

}  // namespace
}  // namespace parley
