// Figures kept on write (store/figure_repo.h): a conversation counted on its day in the account's
// time zone, its contribution following it (a fallback, a CSAT changed, a thumb, the day fixed),
// idle conversations ended, and concurrent appends from two handles counted exactly once each.
#include "core/time_zone.h"
#include "store/conversation_queries.h"
#include "store/conversation_repo.h"
#include "store/figure_repo.h"
#include "store/postgres/pg_connection.h"
#include "store/postgres/pg_database.h"
#include "store_contract.h"

namespace parley {
namespace {

// A conversation of the widget channel (the figures count channels apart).
ConversationRecord widget_conversation(const std::string& id, const std::string& agent,
                                       const std::string& account, int64_t at) {
  ConversationRecord c = contract_conversation(id, agent, account, at);
  c.channel = "widget";
  return c;
}

MessageRecord message(const std::string& id, const std::string& conv, const std::string& role,
                      int64_t at) {
  return {id, conv, 0, role, "text", std::nullopt, "[]", at};
}

TEST_P(StoreContract, FiguresFollowAConversationOnItsDayInTheAccountsZone) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(c.execute("UPDATE accounts SET time_zone = 'Asia/Tokyo' WHERE id = $1", {account_}));
    return ConversationRepo::insert(c, widget_conversation("cnv_1", agent_, account_, now_));
  });
  const int64_t day = local_day(now_, "Asia/Tokyo");
  auto read = [&] {
    auto days = FigureRepo::days(reader(), agent_, day - 1, day + 1);
    EXPECT_TRUE(days.ok());
    EXPECT_EQ(days->size(), 1u);
    EXPECT_EQ((*days)[0].day, day);
    return (*days)[0].figures;
  };
  Figures f = read();
  EXPECT_EQ(f.conversations, 1);
  EXPECT_EQ(f.channels["widget"], 1);
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::append_message(c, message("m1", "cnv_1", "user", now_ + 1)));
    PARLEY_TRY(ConversationRepo::append_message(c, message("m2", "cnv_1", "assistant", now_ + 2)));
    // A reply the engine recorded as the fallback, and the visitor's thumb down on it.
    PARLEY_TRY(
        c.execute("UPDATE messages SET outcome = 'fallback', rating = 'down' WHERE id = 'm2'", {}));
    return FigureRepo::refresh_for_message(c, "m2");
  });
  f = read();
  EXPECT_EQ(f.visitor_messages, 1);
  EXPECT_EQ(f.agent_replies, 1);
  EXPECT_EQ(f.answered, 0);
  EXPECT_EQ(f.fallbacks, 1);
  EXPECT_EQ(f.thumbs_down, 1);
  EXPECT_EQ(f.ended, 0);
  // A CSAT ends it; the fallback among its last two replies keeps it unresolved.
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_, "cnv_1"));
    conv->csat_score = 2;
    return ConversationRepo::update(c, *conv);
  });
  f = read();
  EXPECT_EQ(f.ended, 1);
  EXPECT_EQ(f.resolved, 0);
  EXPECT_EQ(f.csat_count, 1);
  EXPECT_EQ(f.csat[1], 1);
  // The thumb taken back and the CSAT changed: old values out, new ones in; a zone change later
  // leaves the day where it was.
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(c.execute("UPDATE messages SET rating = NULL WHERE id = 'm2'", {}));
    PARLEY_TRY(c.execute("UPDATE accounts SET time_zone = 'America/Los_Angeles' WHERE id = $1",
                         {account_}));
    PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_, "cnv_1"));
    conv->csat_score = 5;
    return ConversationRepo::update(c, *conv);
  });
  f = read();
  EXPECT_EQ(f.conversations, 1);
  EXPECT_EQ(f.thumbs_down, 0);
  EXPECT_EQ(f.csat_count, 1);
  EXPECT_EQ(f.csat_sum, 5);
  EXPECT_EQ(f.csat[1], 0);
  EXPECT_EQ(f.csat[4], 1);
}

// The channel and every topic move together (one statement): topics changed later take the old
// ones out and put the new ones in, on the conversation's day.
TEST_P(StoreContract, FiguresCountAConversationsChannelAndEachOfItsTopics) {
  write([&](Connection& c) -> Result<void> {
    ConversationRecord conv = widget_conversation("cnv_t", agent_, account_, now_);
    conv.topics = R"(["billing","shipping"])";
    return ConversationRepo::insert(c, conv);
  });
  const int64_t day = local_day(now_, "UTC");
  auto read = [&] {
    auto days = FigureRepo::days(reader(), agent_, day, day);
    EXPECT_TRUE(days.ok());
    EXPECT_EQ(days->size(), 1u);
    return days->empty() ? Figures{} : (*days)[0].figures;
  };
  Figures f = read();
  EXPECT_EQ(f.channels, (std::map<std::string, int64_t>{{"widget", 1}}));
  EXPECT_EQ(f.topics, (std::map<std::string, int64_t>{{"billing", 1}, {"shipping", 1}}));
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_, "cnv_t"));
    conv->topics = R"(["billing","returns"])";
    return ConversationRepo::update(c, *conv);
  });
  f = read();
  EXPECT_EQ(f.conversations, 1);
  EXPECT_EQ(f.channels, (std::map<std::string, int64_t>{{"widget", 1}}));
  EXPECT_EQ(f.topics, (std::map<std::string, int64_t>{{"billing", 1}, {"returns", 1}}));
}

// What the figures hold: every day row of the agent and every conversation's stored contribution,
// one line each, for comparing two moments.
std::vector<std::string> figure_rows(Connection& c, const std::string& agent) {
  std::vector<std::string> out;
  auto line = [&](const Row& r, int columns) {
    std::string l;
    for (int i = 0; i < columns; ++i) l += (r.is_null(i) ? "null" : r.text(i)) + "|";
    out.push_back(std::move(l));
  };
  EXPECT_TRUE(
      c.query("SELECT CAST(day AS TEXT), CAST(conversations AS TEXT),"
              " CAST(visitor_messages AS TEXT), CAST(agent_replies AS TEXT),"
              " CAST(answered AS TEXT), CAST(low_confidence AS TEXT), CAST(fallbacks AS TEXT),"
              " CAST(handoffs AS TEXT), CAST(live_chats AS TEXT), CAST(ended AS TEXT),"
              " CAST(resolved AS TEXT), CAST(csat_sum AS TEXT), CAST(csat_count AS TEXT),"
              " CAST(thumbs_up AS TEXT), CAST(thumbs_down AS TEXT)"
              " FROM figure_days WHERE agent_id = $1 ORDER BY day",
              {agent}, [&](const Row& r) { line(r, 15); })
          .ok());
  EXPECT_TRUE(c.query("SELECT kind, name, CAST(count AS TEXT) FROM figure_day_names"
                      " WHERE agent_id = $1 AND count <> 0 ORDER BY day, kind, name",
                      {agent}, [&](const Row& r) { line(r, 3); })
                  .ok());
  EXPECT_TRUE(
      c.query("SELECT conversation_id, CAST(day AS TEXT), channel, topics,"
              " CAST(last_activity_at AS TEXT), CAST(idle_ended AS TEXT),"
              " CAST(visitor_messages AS TEXT), CAST(agent_replies AS TEXT),"
              " CAST(answered AS TEXT), CAST(low_confidence AS TEXT), CAST(fallbacks AS TEXT),"
              " CAST(handoff AS TEXT), CAST(live_chat AS TEXT), CAST(ended AS TEXT),"
              " CAST(resolved AS TEXT), CAST(csat AS TEXT), CAST(thumbs_up AS TEXT),"
              " CAST(thumbs_down AS TEXT)"
              " FROM conversation_figures WHERE agent_id = $1 ORDER BY conversation_id",
              {agent}, [&](const Row& r) { line(r, 18); })
          .ok());
  return out;
}

MessageRecord reply(const std::string& id, const std::string& conv, int64_t at,
                    std::optional<std::string> outcome) {
  MessageRecord m = message(id, conv, "assistant", at);
  m.outcome = std::move(outcome);
  return m;
}

// A conversation inserted with its first messages is counted from what its insert wrote, not
// read back (FigureRepo::count_new, a new conversation's first turn). Whatever it was written
// with, a recount of each afterwards must find exactly what was counted: the day rows, the
// names and each conversation's stored contribution stay as they are.
TEST_P(StoreContract, ANewConversationCountedFromItsInsertIsWhatARecountFinds) {
  const std::string zone = "Asia/Tokyo";
  // Just after midnight in Tokyo, the afternoon before in UTC: counted on the wrong zone's day,
  // the figures would not be on the day read below.
  const int64_t at = local_day(now_, zone) * 86'400'000 - 9 * 3'600'000 + 1'000;
  ASSERT_NE(local_day(at, zone), local_day(at, "UTC"));
  std::vector<std::pair<ConversationRecord, std::vector<MessageRecord>>> made;
  auto add = [&](ConversationRecord conv, std::vector<MessageRecord> messages) {
    made.emplace_back(std::move(conv), std::move(messages));
  };
  // Answered, on the API.
  add(contract_conversation("cnv_n1", agent_, account_, at),
      {message("n1a", "cnv_n1", "user", at), reply("n1b", "cnv_n1", at + 1, "answered")});
  // The fallback, in the widget, with topics: among the last two replies, so not resolved.
  ConversationRecord topical = widget_conversation("cnv_n2", agent_, account_, at);
  topical.topics = R"(["billing","refunds"])";
  add(topical, {message("n2a", "cnv_n2", "user", at), reply("n2b", "cnv_n2", at + 5, "fallback")});
  // Low confidence, a team member's reply (not the agent's), a thumb up and one down.
  MessageRecord member = message("n3c", "cnv_n3", "assistant", at + 3);
  member.author_name = "Dana";
  member.rating = "down";
  MessageRecord low = reply("n3b", "cnv_n3", at + 2, "low_confidence");
  low.rating = "up";
  add(contract_conversation("cnv_n3", agent_, account_, at),
      {message("n3a", "cnv_n3", "user", at), low, member});
  // Ended by a CSAT, with a hand-off asked: ended, not resolved.
  ConversationRecord rated = contract_conversation("cnv_n4", agent_, account_, at);
  rated.csat_score = 4;
  rated.handoff_requested_at = at;
  add(rated, {message("n4a", "cnv_n4", "user", at), reply("n4b", "cnv_n4", at + 1, std::nullopt)});
  // A live chat that ended after it started: ended and resolved, no hand-off asked of the agent.
  ConversationRecord live = contract_conversation("cnv_n5", agent_, account_, at);
  live.live_chat_status = "ended";
  live.live_chat_started_at = at + 1;
  live.live_chat_ended_at = at + 2;
  add(live, {message("n5a", "cnv_n5", "user", at)});
  // A live chat waiting for a person, and a fallback two replies back (no longer recent).
  ConversationRecord waiting = contract_conversation("cnv_n6", agent_, account_, at);
  waiting.live_chat_status = "requested";
  waiting.live_chat_requested_at = at;
  add(waiting,
      {message("n6a", "cnv_n6", "user", at), reply("n6b", "cnv_n6", at + 1, "fallback"),
       reply("n6c", "cnv_n6", at + 2, "answered"), reply("n6d", "cnv_n6", at + 3, "answered")});
  // No messages at all.
  add(contract_conversation("cnv_n7", agent_, account_, at), {});
  // Ended by a CSAT with a fallback among its last two replies: not resolved; and with one three
  // replies back: resolved.
  ConversationRecord recent = contract_conversation("cnv_n8", agent_, account_, at);
  recent.csat_score = 5;
  add(recent, {message("n8a", "cnv_n8", "user", at), reply("n8b", "cnv_n8", at + 1, "fallback"),
               reply("n8c", "cnv_n8", at + 2, "answered")});
  ConversationRecord earlier = contract_conversation("cnv_n9", agent_, account_, at);
  earlier.csat_score = 3;
  add(earlier,
      {message("n9a", "cnv_n9", "user", at), reply("n9b", "cnv_n9", at + 1, "fallback"),
       reply("n9c", "cnv_n9", at + 2, "answered"), reply("n9d", "cnv_n9", at + 3, "answered")});
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(c.execute("UPDATE accounts SET time_zone = $2 WHERE id = $1", {account_, zone}));
    for (auto& [conv, messages] : made) {
      PARLEY_TRY(ConversationRepo::insert(c, conv, messages, zone));
    }
    return {};
  });
  const std::vector<std::string> counted = figure_rows(reader(), agent_);
  // Not nothing: the figures counted every conversation on its Tokyo day.
  auto days = FigureRepo::days(reader(), agent_, local_day(at, zone), local_day(at, zone));
  ASSERT_TRUE(days.ok());
  ASSERT_EQ(days->size(), 1u);
  const Figures& f = (*days)[0].figures;
  EXPECT_EQ(f.conversations, 9);
  EXPECT_EQ(f.visitor_messages, 8);
  EXPECT_EQ(f.agent_replies, 12);
  EXPECT_EQ(f.fallbacks, 4);
  EXPECT_EQ(f.low_confidence, 1);
  EXPECT_EQ(f.answered, 8);
  EXPECT_EQ(f.handoffs, 2);
  EXPECT_EQ(f.live_chats, 1);
  EXPECT_EQ(f.ended, 4);
  EXPECT_EQ(f.resolved, 2);
  EXPECT_EQ(f.csat_count, 3);
  EXPECT_EQ(f.csat_sum, 12);
  EXPECT_EQ(f.thumbs_up, 1);
  EXPECT_EQ(f.thumbs_down, 1);
  EXPECT_EQ(f.channels, (std::map<std::string, int64_t>{{"api", 8}, {"widget", 1}}));
  EXPECT_EQ(f.topics, (std::map<std::string, int64_t>{{"billing", 1}, {"refunds", 1}}));
  write([&](Connection& c) -> Result<void> {
    for (const auto& made_one : made) PARLEY_TRY(FigureRepo::refresh(c, made_one.first.id));
    return {};
  });
  EXPECT_EQ(figure_rows(reader(), agent_), counted);
}

// A new conversation that changes again in the unit of work that inserted it (its topics, found
// by the turn's analysis) is recounted from its rows at the end: what was written first is not
// what it adds.
TEST_P(StoreContract, ANewConversationChangedAfterItsInsertIsRecounted) {
  write([&](Connection& c) -> Result<void> {
    std::vector<MessageRecord> first{message("t1", "cnv_c", "user", now_)};
    PARLEY_TRY(ConversationRepo::insert(c, contract_conversation("cnv_c", agent_, account_, now_),
                                        first, std::string_view("UTC")));
    return ConversationQueries::set_analysis(c, "cnv_c", R"(["shipping"])", std::nullopt);
  });
  auto days = FigureRepo::days(reader(), agent_, local_day(now_, "UTC"), local_day(now_, "UTC"));
  ASSERT_TRUE(days.ok());
  ASSERT_EQ(days->size(), 1u);
  EXPECT_EQ((*days)[0].figures.conversations, 1);
  EXPECT_EQ((*days)[0].figures.visitor_messages, 1);
  EXPECT_EQ((*days)[0].figures.topics, (std::map<std::string, int64_t>{{"shipping", 1}}));
}

// The recount is planned once per connection on PostgreSQL: planned with its parameter's value it
// could come out cheaper than the generic plan (a conversation the statistics make rare), and
// PostgreSQL would then plan it again on every run (about 0.4 ms, eight times its run). Its
// statistics are made so here: one conversation with all the messages but one. With the id hidden
// from the estimates, the plan for a value costs what the generic plan costs, so PostgreSQL keeps
// the generic one.
TEST_P(StoreContract, TheFiguresRecountIsPlannedOncePerConnection) {
  if (GetParam().name != "Postgres") GTEST_SKIP() << "PostgreSQL's plan cache";
  PgConnection::keep_statement_sql(true);
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(
        ConversationRepo::insert(c, contract_conversation("cnv_big", agent_, account_, now_)));
    PARLEY_TRY(
        ConversationRepo::insert(c, contract_conversation("cnv_few", agent_, account_, now_)));
    PARLEY_TRY(
        c.execute("INSERT INTO messages (id, conversation_id, seq, role, content, sources,"
                  " created_at) SELECT 'm_big_' || i, 'cnv_big', i, 'user', 'text', '[]', i"
                  " FROM generate_series(1, 2000) AS i",
                  {}));
    PARLEY_TRY(ConversationRepo::append_message(c, message("m_few", "cnv_few", "user", now_)));
    return {};
  });
  PgConnection::keep_statement_sql(false);
  std::string recount;  // as the write sent it, after "wait "
  for (const auto& sql : PgDatabase::last_write_cost().sql) {
    if (sql.find("JOIN conversation_figures f") != std::string::npos) recount = sql.substr(5);
  }
  ASSERT_FALSE(recount.empty());
  Connection& c = reader();
  auto lines = [](std::string& out) {
    return [&out](const Row& r) {
      for (int i = 0; i < r.column_count(); ++i) out += (r.is_null(i) ? "" : r.text(i)) + " ";
      out += "\n";
    };
  };
  ASSERT_TRUE(c.execute("ANALYZE messages", {}).ok());
  ASSERT_TRUE(c.execute("ANALYZE conversations", {}).ok());
  ASSERT_TRUE(c.execute("PREPARE contract_recount AS " + recount, {}).ok());
  struct Cleanup {  // the reader is shared by the other tests
    Connection& c;
    ~Cleanup() {
      (void)c.execute("RESET plan_cache_mode", {});
      (void)c.execute("DEALLOCATE contract_recount", {});
    }
  } cleanup{c};
  std::string generic, custom;
  ASSERT_TRUE(c.execute("SET plan_cache_mode = force_generic_plan", {}).ok());
  ASSERT_TRUE(c.query("EXPLAIN EXECUTE contract_recount('cnv_few')", {}, lines(generic)).ok());
  ASSERT_TRUE(c.execute("SET plan_cache_mode = force_custom_plan", {}).ok());
  ASSERT_TRUE(c.query("EXPLAIN EXECUTE contract_recount('cnv_few')", {}, lines(custom)).ok());
  // The first line holds the plan's total cost: a plan for the value is no cheaper.
  EXPECT_EQ(custom.substr(0, custom.find('\n')), generic.substr(0, generic.find('\n')))
      << "custom:\n"
      << custom << "generic:\n"
      << generic;
  EXPECT_EQ(custom.find("cnv_few"), std::string::npos) << custom;
  // Left to choose, PostgreSQL plans it for its values five times, then keeps the generic plan.
  ASSERT_TRUE(c.execute("RESET plan_cache_mode", {}).ok());
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(c.query("EXECUTE contract_recount('cnv_few')", {}, [](const Row&) {}).ok());
  }
  int64_t generic_plans = -1, custom_plans = -1;
  ASSERT_TRUE(c.query("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                      " WHERE name = 'contract_recount'",
                      {},
                      [&](const Row& r) {
                        generic_plans = r.int64(0);
                        custom_plans = r.int64(1);
                      })
                  .ok());
  // Five plans for values in all (one was the EXPLAIN's), then the generic plan at every run.
  EXPECT_EQ(custom_plans, 5);
  EXPECT_GE(generic_plans, 4);
}

TEST_P(StoreContract, FiguresEndIdleConversationsAndReopenThemOnANewMessage) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::insert(c, widget_conversation("cnv_1", agent_, account_, now_)));
    PARLEY_TRY(ConversationRepo::append_message(c, message("m1", "cnv_1", "user", now_)));
    return ConversationRepo::append_message(c, message("m2", "cnv_1", "assistant", now_)).ok()
               ? Result<void>{}
               : Result<void>{ApiError::internal("append")};
  });
  const int64_t day = local_day(now_, "UTC");
  auto figures = [&] { return (*FigureRepo::days(reader(), agent_, day, day))[0].figures; };
  // idle() takes the latest last activity that counts as idle: now less the idle time.
  EXPECT_TRUE(FigureRepo::idle(reader(), now_ - 1, 10)->empty());
  auto idle = FigureRepo::idle(reader(), now_, 10);
  ASSERT_EQ(idle->size(), 1u);
  write([&](Connection& c) { return FigureRepo::refresh(c, "cnv_1", now_ + kConversationIdleMs); });
  EXPECT_EQ(figures().ended, 1);
  EXPECT_EQ(figures().resolved, 1);
  EXPECT_TRUE(FigureRepo::idle(reader(), now_, 10)->empty());
  // The visitor comes back: open again, then ended again by the next sweep.
  write([&](Connection& c) -> Result<void> {
    return ConversationRepo::append_message(
               c, message("m3", "cnv_1", "user", now_ + kConversationIdleMs + 5))
                   .ok()
               ? Result<void>{}
               : Result<void>{ApiError::internal("append")};
  });
  EXPECT_EQ(figures().ended, 0);
  EXPECT_EQ(figures().resolved, 0);
  EXPECT_EQ(figures().conversations, 1);
}

TEST_P(StoreContract, FiguresCountConcurrentWritersExactlyOnce) {
  constexpr int kConversationsPerThread = 5;
  concurrently([&](int t, Database& db) {
    for (int i = 0; i < kConversationsPerThread; ++i) {
      std::string id = "cnv_" + std::to_string(t) + "_" + std::to_string(i);
      auto done = db.write([&](Connection& c) -> Result<void> {
        PARLEY_TRY(ConversationRepo::insert(c, widget_conversation(id, agent_, account_, now_)));
        PARLEY_TRY(ConversationRepo::append_message(c, message(id + "u", id, "user", now_ + 1)));
        PARLEY_TRY(
            ConversationRepo::append_message(c, message(id + "a", id, "assistant", now_ + 1)));
        return {};
      });
      EXPECT_TRUE(done.ok()) << done.error().message;
    }
  });
  const int64_t day = local_day(now_, "UTC");
  auto days = FigureRepo::days(reader(), agent_, day, day);
  ASSERT_EQ(days->size(), 1u);
  const Figures& f = (*days)[0].figures;
  EXPECT_EQ(f.conversations, kThreads * kConversationsPerThread);
  EXPECT_EQ(f.visitor_messages, kThreads * kConversationsPerThread);
  EXPECT_EQ(f.agent_replies, kThreads * kConversationsPerThread);
  EXPECT_EQ(f.answered, kThreads * kConversationsPerThread);
  EXPECT_EQ(f.channels.at("widget"), kThreads * kConversationsPerThread);
}

}  // namespace
}  // namespace parley
