// Conversations and messages: insert, find, update, remove, keyset pages, and message sequences
// taken by concurrent appends.
#include <array>
#include <chrono>
#include <future>
#include <set>
#include <thread>

#include "store/agent_repo.h"
#include "store/conversation_purge.h"
#include "store/conversation_queries.h"
#include "store/conversation_repo.h"
#include "store/inbox_queries.h"
#include "store/postgres/first_statistics.h"
#include "store_contract.h"

namespace parley {
namespace {

TEST_P(StoreContract, AConversationIsFoundByIdWithinItsAccountAndBySession) {
  write([&](Connection& c) {
    return ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_));
  });
  auto found = ConversationRepo::find(reader(), account_, "cnv_1");
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->session_id, "s_cnv_1");
  EXPECT_EQ((*found)->channel, "api");
  EXPECT_FALSE(ConversationRepo::find(reader(), "acc_other", "cnv_1")->has_value());
  auto by_session = ConversationRepo::find_by_session(reader(), agent_, "s_cnv_1");
  ASSERT_TRUE(by_session->has_value());
  EXPECT_EQ((*by_session)->id, "cnv_1");
  auto agent = AgentRepo::find_any(reader(), agent_);
  EXPECT_EQ((*agent)->conversations_count, 1);
}

TEST_P(StoreContract, AConversationInsertedWithItsFirstMessagesIsStoredAsAppendsWouldStoreIt) {
  std::array<MessageRecord, 2> first{contract_message("msg_q", "", now_ + 5),
                                     contract_message("msg_a", "", now_ + 9)};
  first[1].role = "assistant";
  write([&](Connection& c) {
    return ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_),
                                    first);
  });
  EXPECT_EQ(first[0].seq, 1);
  EXPECT_EQ(first[1].seq, 2);
  EXPECT_EQ(first[1].conversation_id, "cnv_1");
  auto all = ConversationRepo::messages(reader(), "cnv_1");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].id, "msg_q");
  EXPECT_EQ((*all)[0].seq, 1);
  EXPECT_EQ((*all)[1].id, "msg_a");
  EXPECT_EQ((*all)[1].role, "assistant");
  auto conv = ConversationRepo::find(reader(), account_, "cnv_1");
  ASSERT_TRUE(conv.ok() && conv->has_value());
  EXPECT_EQ((*conv)->message_count, 2);
  EXPECT_EQ((*conv)->last_activity_at, now_ + 9);
  auto agent = AgentRepo::find_any(reader(), agent_);
  EXPECT_EQ((*agent)->conversations_count, 1);
  EXPECT_EQ((*agent)->messages_count, 2);
  // The next append follows them.
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(
        auto m, ConversationRepo::append_message(c, contract_message("msg_3", "cnv_1", now_ + 20)));
    EXPECT_EQ(m.seq, 3);
    return {};
  });
}

// A lookup by a unique key takes that key's index, not another index of the agent's rows that it
// would filter. PostgreSQL plans a statement on a connection's first runs and keeps the plan
// until the table is analyzed, and on an empty table every index that begins with the agent costs
// it the same: a table that has grown is analyzed once (store/postgres/first_statistics.h), which
// makes the plans kept since the table was empty again. Checked as a connection keeps them
// (generic plans, prepared while the tables were empty).
TEST_P(StoreContract, LookupsByUniqueKeysTakeTheirIndexOnceATableHasGrown) {
  Connection& c = reader();
  const std::string session_lookup =
      "SELECT id FROM conversations WHERE agent_id = $1 AND session_id = $2";
  const std::string contact_lookup =
      "SELECT id FROM contacts WHERE agent_id = $1 AND external_id = $2 UNION ALL SELECT id FROM "
      "contacts WHERE agent_id = $1 AND email = $3";
  std::string session, contact;
  auto texts = [](std::vector<std::string> values) {
    return std::vector<DbValue>(values.begin(), values.end());
  };
  auto plan_into = [&](std::string& plan) {
    return [&plan](const Row& r) {
      for (int i = 0; i < r.column_count(); ++i) plan += (r.is_null(i) ? "" : r.text(i)) + " ";
      plan += "\n";
    };
  };
  if (GetParam().name != "Postgres") {
    ASSERT_TRUE(
        c.query("EXPLAIN QUERY PLAN " + session_lookup, texts({agent_, "s_1"}), plan_into(session))
            .ok());
    ASSERT_TRUE(c.query("EXPLAIN QUERY PLAN " + contact_lookup,
                        texts({agent_, "u1", "1@example.com"}), plan_into(contact))
                    .ok());
    EXPECT_NE(session.find("(agent_id=? AND session_id=?)"), std::string::npos) << session;
    EXPECT_NE(contact.find("(agent_id=? AND external_id=?)"), std::string::npos) << contact;
    EXPECT_NE(contact.find("(agent_id=? AND email=?)"), std::string::npos) << contact;
    EXPECT_EQ((session + contact).find("SCAN"), std::string::npos) << session << contact;
    return;
  }
  ASSERT_TRUE(c.execute("SET plan_cache_mode = force_generic_plan", {}).ok());
  ASSERT_TRUE(c.execute("PREPARE session_lookup AS " + session_lookup, {}).ok());
  ASSERT_TRUE(c.execute("PREPARE contact_lookup AS " + contact_lookup, {}).ok());
  // Run once on the empty tables, as a node's first requests would.
  ASSERT_TRUE(c.execute("EXECUTE session_lookup('x', 'x')", {}).ok());
  ASSERT_TRUE(c.execute("EXECUTE contact_lookup('x', 'x', 'x')", {}).ok());
  ASSERT_TRUE(
      c.execute("INSERT INTO conversations (id, agent_id, account_id, session_id, channel, "
                "created_at, last_activity_at) SELECT 'cnv_' || i, $1, $2, 's_' || i, 'api', i, i "
                "FROM generate_series(1, 600) AS i",
                {agent_, account_})
          .ok());
  ASSERT_TRUE(c.execute("INSERT INTO contacts (id, agent_id, account_id, external_id, email, "
                        "source, first_seen_at, last_seen_at, created_at, updated_at) SELECT "
                        "'con_' || i, $1, $2, 'u' || i, i || '@example.com', 'api', i, i, i, i "
                        "FROM generate_series(1, 600) AS i",
                        {agent_, account_})
                  .ok());
  // The statistics of this connection's writes, where the next query sees them.
  ASSERT_TRUE(c.execute("SELECT pg_stat_force_next_flush()", {}).ok());
  // A round, as the store's own (every two seconds, which may come first) would run it.
  std::set<std::string> tried;
  auto analyzed = FirstStatistics::analyze_new_tables(db(), tried);
  ASSERT_TRUE(analyzed.ok()) << analyzed.error().message;
  auto analyses = c.query_int(
      "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('conversations', 'contacts') "
      "AND last_analyze IS NOT NULL",
      {});
  ASSERT_TRUE(analyses.ok());
  EXPECT_EQ(analyses->value_or(-1), 2);
  // Analyzed once: the next round leaves them to autovacuum.
  std::set<std::string> none_tried;
  auto again = FirstStatistics::analyze_new_tables(db(), none_tried);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->empty());
  ASSERT_TRUE(c.query("EXPLAIN EXECUTE session_lookup('x', 'x')", {}, plan_into(session)).ok());
  ASSERT_TRUE(
      c.query("EXPLAIN EXECUTE contact_lookup('x', 'x', 'x')", {}, plan_into(contact)).ok());
  (void)c.execute("DEALLOCATE session_lookup", {});
  (void)c.execute("DEALLOCATE contact_lookup", {});
  (void)c.execute("RESET plan_cache_mode", {});
  EXPECT_NE(session.find("Index Cond: ((agent_id = $1) AND (session_id = $2))"), std::string::npos)
      << session;
  EXPECT_NE(contact.find("Index Cond: ((agent_id = $1) AND (external_id = $2))"), std::string::npos)
      << contact;
  EXPECT_NE(contact.find("Index Cond: ((agent_id = $1) AND (email = $3))"), std::string::npos)
      << contact;
  EXPECT_EQ((session + contact).find("Filter"), std::string::npos) << session << contact;
}

// The inbox's "unanswered" and "rated low" filters probe each conversation for a fallback reply
// and for a reply rated down (InboxQueries::filter_sql): each probe can take its sparse index,
// which holds only such replies (migration 0053), so that other messages write no entry into it.
TEST_P(StoreContract, TheInboxProbesForFallbacksAndThumbsDownTakeTheirSparseIndexes) {
  Connection& c = reader();
  const bool postgres = GetParam().name == "Postgres";
  auto plan = [&](InboxFilter filter) {
    std::string out;
    const std::string sql = std::string(postgres ? "EXPLAIN " : "EXPLAIN QUERY PLAN ") +
                            "SELECT id FROM conversations WHERE agent_id = $1 AND " +
                            std::string(InboxQueries::filter_sql(filter));
    auto r = c.query(sql, std::vector<DbValue>{DbValue(agent_)}, [&](const Row& row) {
      for (int i = 0; i < row.column_count(); ++i) out += (row.is_null(i) ? "" : row.text(i)) + " ";
      out += "\n";
    });
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return out;
  };
  std::string unanswered, rated_low;
  {
    // PostgreSQL would read tables this small whole: asked to use indexes, it shows which it can.
    if (postgres) {
      ASSERT_TRUE(c.execute("SET enable_seqscan = off", {}).ok());
    }
    struct Reset {
      Connection& c;
      bool on;
      ~Reset() {
        if (on) (void)c.execute("RESET enable_seqscan", {});
      }
    } reset{c, postgres};
    unanswered = plan(InboxFilter::kUnanswered);
    rated_low = plan(InboxFilter::kRatedLow);
  }
  EXPECT_NE(unanswered.find("messages_conversation_fallback"), std::string::npos) << unanswered;
  EXPECT_NE(rated_low.find("messages_conversation_rated_down"), std::string::npos) << rated_low;
}

TEST_P(StoreContract, MessagesAreNumberedFromOneAndReadInOrder) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_)));
    for (int i = 0; i < 5; ++i) {
      PARLEY_ASSIGN_OR_RETURN(
          auto m, ConversationRepo::append_message(
                      c, contract_message("msg_" + std::to_string(i), "cnv_1", now_ + 10 * i)));
      EXPECT_EQ(m.seq, i + 1);
    }
    return {};
  });
  auto all = ConversationRepo::messages(reader(), "cnv_1");
  ASSERT_EQ(all->size(), 5u);
  EXPECT_EQ((*all)[0].id, "msg_0");
  EXPECT_EQ((*all)[4].seq, 5);
  auto after = ConversationRepo::messages_after(reader(), "cnv_1", 3);
  ASSERT_EQ(after->size(), 2u);
  EXPECT_EQ((*after)[0].seq, 4);
  auto last = ConversationRepo::last_messages(reader(), "cnv_1", 2);
  ASSERT_EQ(last->size(), 2u);
  EXPECT_EQ((*last)[0].id, "msg_3");
  EXPECT_EQ((*last)[1].id, "msg_4");
  auto conv = ConversationRepo::find(reader(), account_, "cnv_1");
  EXPECT_EQ((*conv)->message_count, 5);
  EXPECT_EQ((*conv)->last_activity_at, now_ + 40);
  EXPECT_EQ((*AgentRepo::find_any(reader(), agent_))->messages_count, 5);
}

TEST_P(StoreContract, AppendingToAMissingConversationIsNotFound) {
  auto r = db().write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_x", "cnv_missing", now_)));
    return {};
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
}

TEST_P(StoreContract, AnUpdateFromAStaleRecordKeepsTheMessageCountAndTheLastActivity) {
  write([&](Connection& c) {
    return ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_));
  });
  ConversationRecord stale = **ConversationRepo::find(reader(), account_, "cnv_1");
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_1", "cnv_1", now_ + 500)));
    return {};
  });
  stale.csat_score = 5;
  stale.live_chat_status = "requested";
  write([&](Connection& c) { return ConversationRepo::update(c, stale); });
  auto conv = **ConversationRepo::find(reader(), account_, "cnv_1");
  EXPECT_EQ(conv.csat_score, 5);
  EXPECT_EQ(conv.live_chat_status, "requested");
  EXPECT_EQ(conv.message_count, 1);
  EXPECT_EQ(conv.last_activity_at, now_ + 500);
}

TEST_P(StoreContract, RemovingAConversationTakesItsCountsOffTheAgent) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_)));
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_1", "cnv_1", now_)));
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_2", "cnv_1", now_)));
    return {};
  });
  std::optional<int64_t> removed;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(removed, ConversationRepo::remove(c, account_, "cnv_1"));
    return {};
  });
  EXPECT_TRUE(removed);
  EXPECT_FALSE(ConversationRepo::find(reader(), account_, "cnv_1")->has_value());
  EXPECT_TRUE(ConversationRepo::messages(reader(), "cnv_1")->empty());
  auto agent = **AgentRepo::find_any(reader(), agent_);
  EXPECT_EQ(agent.conversations_count, 0);
  EXPECT_EQ(agent.messages_count, 0);
}

// A turn that appends while a removal waits for the conversation: the removal takes off the
// counts of the row it deleted, that turn's message included (a count read before the DELETE
// would leave it on the agent for ever). On SQLite the two run one after the other.
TEST_P(StoreContract, ARemovalTakesOffTheMessagesOfATurnItWaitedFor) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_)));
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_1", "cnv_1", now_)));
    return {};
  });
  std::promise<void> appended;
  std::thread turn([&] {
    // As a chat turn: the agent's row, then the conversation's, held until the commit.
    auto r = db().write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(bool found, AgentRepo::lock(c, agent_));
      EXPECT_TRUE(found);
      PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_2", "cnv_1", now_ + 1)));
      appended.set_value();
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      return {};
    });
    EXPECT_TRUE(r.ok());
  });
  appended.get_future().wait();
  std::optional<int64_t> removed;
  auto r = other().write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(removed, ConversationRepo::remove(c, account_, "cnv_1"));
    return {};
  });
  turn.join();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(removed, 2);
  auto agent = **AgentRepo::find_any(reader(), agent_);
  EXPECT_EQ(agent.conversations_count, 0);
  EXPECT_EQ(agent.messages_count, 0);
  EXPECT_TRUE(ConversationRepo::messages(reader(), "cnv_1")->empty());
}

// A turn that makes an old conversation active again while the retention purge waits for its row
// keeps it: the DELETE checks the cutoff again on the row as the turn left it (picked before the
// turn committed, it was deleted with the turn's message). On SQLite the two run one after the
// other.
TEST_P(StoreContract, AConversationATurnRevivesWhileThePurgeWaitsIsKept) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(
        ConversationRepo::insert(c, contract_conversation("cnv_old", agent_, account_, now_)));
    PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_1", "cnv_old", now_)));
    return {};
  });
  const int64_t later = now_ + 100'000;
  std::promise<void> appended;
  std::thread turn([&] {
    auto r = db().write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(bool found, AgentRepo::lock(c, agent_));
      EXPECT_TRUE(found);
      PARLEY_TRY(ConversationRepo::append_message(c, contract_message("msg_2", "cnv_old", later)));
      appended.set_value();
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      return {};
    });
    EXPECT_TRUE(r.ok());
  });
  appended.get_future().wait();
  PurgeCounts purged;
  auto r = other().write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto picked, conversations_inactive_since(c, agent_, now_ + 1, 10));
    for (const auto& id : picked) {
      PARLEY_ASSIGN_OR_RETURN(auto one, purge_conversation(c, id, now_ + 1));
      purged += one;
    }
    return {};
  });
  turn.join();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(purged.conversations, 0);
  auto kept = ConversationRepo::find(reader(), account_, "cnv_old");
  ASSERT_TRUE(kept.ok() && kept->has_value());
  EXPECT_EQ((*kept)->message_count, 2);
  EXPECT_EQ((*kept)->last_activity_at, later);
  auto agent = **AgentRepo::find_any(reader(), agent_);
  EXPECT_EQ(agent.conversations_count, 1);
  EXPECT_EQ(agent.messages_count, 2);
}

TEST_P(StoreContract, ConversationPagesAreNewestFirstAndContinueAfterTheLastItem) {
  write([&](Connection& c) -> Result<void> {
    for (int i = 0; i < 7; ++i) {
      // Two share each creation time: the id breaks the tie.
      PARLEY_TRY(
          ConversationRepo::insert(c, contract_conversation("cnv_" + std::to_string(i), agent_,
                                                            account_, now_ + (i / 2) * 100)));
    }
    return {};
  });
  std::vector<std::string> ids;
  PageQuery q;
  q.limit = 3;
  for (int page = 0; page < 5; ++page) {
    auto p = ConversationQueries::list(reader(), agent_, q);
    ASSERT_TRUE(p.ok());
    for (const auto& c : p->items) ids.push_back(c.id);
    if (!p->has_more) break;
    q.after = KeysetPosition{p->items.back().created_at, p->items.back().id};
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"cnv_6", "cnv_5", "cnv_4", "cnv_3", "cnv_2", "cnv_1",
                                           "cnv_0"}));
}

TEST_P(StoreContract, ConcurrentAppendsToOneConversationTakeEverySeqOnce) {
  write([&](Connection& c) {
    return ConversationRepo::insert(c, contract_conversation("cnv_1", agent_, account_, now_));
  });
  constexpr int kEach = 25;
  std::atomic<int> failures{0};
  concurrently([&](int t, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      auto r = db.write([&](Connection& c) -> Result<void> {
        PARLEY_TRY(ConversationRepo::append_message(
            c,
            contract_message("msg_" + std::to_string(t) + "_" + std::to_string(i), "cnv_1", now_)));
        return {};
      });
      if (!r.ok()) ++failures;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  auto all = *ConversationRepo::messages(reader(), "cnv_1");
  ASSERT_EQ(all.size(), size_t{kThreads * kEach});
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].seq, static_cast<int64_t>(i + 1));
  EXPECT_EQ((**ConversationRepo::find(reader(), account_, "cnv_1")).message_count,
            kThreads * kEach);
  EXPECT_EQ((**AgentRepo::find_any(reader(), agent_)).messages_count, kThreads * kEach);
}

TEST_P(StoreContract, ConcurrentNewConversationsAreEachCountedOnTheAgent) {
  constexpr int kEach = 20;
  concurrently([&](int t, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      auto id = "cnv_" + std::to_string(t) + "_" + std::to_string(i);
      auto r = db.write([&](Connection& c) {
        return ConversationRepo::insert(c, contract_conversation(id, agent_, account_, now_));
      });
      EXPECT_TRUE(r.ok());
    }
  });
  EXPECT_EQ((**AgentRepo::find_any(reader(), agent_)).conversations_count, kThreads * kEach);
}

}  // namespace
}  // namespace parley
