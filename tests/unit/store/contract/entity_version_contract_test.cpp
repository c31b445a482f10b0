// Per-entity versions (store/entity_changes.h): a commit moves the version of exactly the
// entities it changed, another handle on the store (another process, another node) sees the
// move, a chat turn's counters are written once and published with their counts, and a
// conversation's figures are recounted once per transaction.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "store/account_repo.h"
#include "store/agent_counts.h"
#include "store/agent_repo.h"
#include "store/contact_repo.h"
#include "store/conversation_repo.h"
#include "store/entity_versions.h"
#include "store/figure_repo.h"
#include "store/key_repo.h"
#include "store/postgres/pg_database.h"
#include "store/source_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

constexpr const char* kOtherAgent = "agt_contract_other";

// Waits (up to 5 s) for `done`: a change announced by another node arrives asynchronously.
bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// Until a PostgreSQL handle's listener is connected every read of a version is new (nothing
// cached is trusted meanwhile): waits for versions to hold still.
void wait_until_heard(Database& db) {
  EntitySource* source = entity_source(db);
  ASSERT_NE(source, nullptr);
  EXPECT_TRUE(eventually([&] {
    return source->entity_version(Entity::kAccount, "acc_settled") ==
           source->entity_version(Entity::kAccount, "acc_settled");
  }));
}

void add_other_agent(Database& db, const std::string& account, int64_t now) {
  auto r = db.write([&](Connection& c) {
    AgentRecord a;
    a.id = kOtherAgent;
    a.account_id = account;
    a.name = "Other";
    a.created_at = a.updated_at = now;
    return AgentRepo::insert(c, a);
  });
  ASSERT_TRUE(r.ok()) << r.error().message;
}

// A chat turn's writes: a conversation and two messages.
Result<void> turn(Connection& c, const std::string& conversation, const std::string& agent,
                  const std::string& account, int64_t now) {
  ConversationRecord v;
  v.id = conversation;
  v.agent_id = agent;
  v.account_id = account;
  v.session_id = "ses_" + conversation;
  v.channel = "api";
  v.created_at = v.last_activity_at = now;
  PARLEY_TRY(ConversationRepo::insert(c, v));
  for (const char* role : {"user", "assistant"}) {
    MessageRecord m{
        "msg_" + conversation + role, conversation, 0, role, "hello", std::nullopt, "[]", now};
    auto appended = ConversationRepo::append_message(c, std::move(m));
    if (!appended.ok()) return appended.error();
  }
  return {};
}

TEST_P(StoreContract, ACommitMovesTheVersionsOfWhatItChangedOnly) {
  wait_until_heard(db());
  add_other_agent(db(), account_, now_);
  ASSERT_NE(EntityVersions::slot(Entity::kAgent, agent_),
            EntityVersions::slot(Entity::kAgent, kOtherAgent));
  const uint64_t agent_before = entity_source(db())->entity_version(Entity::kAgent, agent_);
  const uint64_t other_before = entity_source(db())->entity_version(Entity::kAgent, kOtherAgent);
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find_any(c, agent_));
    a->name = "Renamed";
    return AgentRepo::update(c, *a);
  });
  EXPECT_EQ(entity_source(db())->entity_version(Entity::kAgent, agent_), agent_before + 1);
  EXPECT_EQ(entity_source(db())->entity_version(Entity::kAgent, kOtherAgent), other_before);

  // A contact is no cached entity: no agent's version moves.
  const uint64_t agent_now = entity_source(db())->entity_version(Entity::kAgent, agent_);
  write([&](Connection& c) -> Result<void> {
    ContactRecord x;
    x.id = "ctc_versions";
    x.agent_id = agent_;
    x.account_id = account_;
    x.email = "a@example.com";
    x.source = "api";
    x.first_seen_at = x.last_seen_at = x.created_at = x.updated_at = now_;
    return ContactRepo::insert_counted(c, x);
  });
  EXPECT_EQ(entity_source(db())->entity_version(Entity::kAgent, agent_), agent_now);
}

// Between a commit and its publishing another thread may read what the commit wrote (a client sees
// a source trained, then asks the agent): until the publishing, the versions of what it changed
// read as values no cache holds, so a cache that reader asks reads the database
// (store/entity_versions.h CommitInFlight). An agent's counters, which the observers hand to the
// cached agent, are not in flight. Seen from the observer of the commit's first change, which runs
// after the commit and before the later changes are published.
TEST_P(StoreContract, WhatACommitChangedIsInFlightUntilItIsPublished) {
  wait_until_heard(db());
  EntitySource* source = entity_source(db());
  ASSERT_NE(EntityVersions::slot(Entity::kKnowledge, agent_),
            EntityVersions::slot(Entity::kAgent, agent_));
  ASSERT_NE(EntityVersions::slot(Entity::kAccount, account_),
            EntityVersions::slot(Entity::kKnowledge, agent_));
  ASSERT_NE(EntityVersions::slot(Entity::kAccount, account_),
            EntityVersions::slot(Entity::kAgent, agent_));
  struct Seen {
    std::atomic<bool> armed{false};
    uint64_t knowledge[2] = {0, 0};
    uint64_t counters = 0;
    uint64_t auth[2] = {0, 0};
    int calls = 0;
  };
  auto seen = std::make_shared<Seen>();
  Database* database = &db();
  source->add_commit_observer(
      [seen, source, database, agent = agent_](const EntityChange& change, uint64_t) {
        if (!seen->armed || change.kind != Entity::kAccount || seen->calls++ > 0) return;
        seen->knowledge[0] = source->entity_version(Entity::kKnowledge, agent);
        seen->knowledge[1] = source->entity_version(Entity::kKnowledge, agent);
        seen->counters = source->entity_version(Entity::kAgent, agent);
        seen->auth[0] = database->auth_epoch();  // an account changed: the keys' cache reloads too
        seen->auth[1] = database->auth_epoch();
      });
  const uint64_t knowledge_before = source->entity_version(Entity::kKnowledge, agent_);
  const uint64_t counters_before = source->entity_version(Entity::kAgent, agent_);
  seen->armed = true;
  write([&](Connection& c) -> Result<void> {
    record_change(c, Entity::kAccount, account_);  // recorded first: published first
    PARLEY_TRY(SourceRepo::bump_version(c, agent_));
    return AgentRepo::add_to_counter(c, agent_, AgentCounter::kSources, 1);
  });
  seen->armed = false;
  EXPECT_EQ(seen->calls, 1);
  // In flight: a new value at every read, neither the old version nor the new one.
  EXPECT_NE(seen->knowledge[0], seen->knowledge[1]);
  for (uint64_t v : seen->knowledge) {
    EXPECT_NE(v, knowledge_before);
    EXPECT_NE(v, knowledge_before + 1);
  }
  EXPECT_EQ(seen->counters, counters_before);  // not in flight, not yet published
  EXPECT_NE(seen->auth[0], seen->auth[1]);
  EXPECT_EQ(db().auth_epoch(), db().auth_epoch());
  // Published: the versions moved once each, and read as they are again.
  EXPECT_EQ(source->entity_version(Entity::kKnowledge, agent_), knowledge_before + 1);
  EXPECT_EQ(source->entity_version(Entity::kKnowledge, agent_), knowledge_before + 1);
  EXPECT_EQ(source->entity_version(Entity::kAgent, agent_), counters_before + 1);
}

// A connection lost while its COMMIT was sent may have committed: the write fails, and what it
// changed is published as if it had (a version moved for nothing costs a cache one read; one left
// unmoved would let caches serve what the commit replaced until the next change).
TEST_P(StoreContract, AConnectionLostAtCommitPublishesWhatItMayHaveCommitted) {
  if (GetParam().name != "Postgres") GTEST_SKIP() << "SQLite stops the process instead";
  wait_until_heard(db());
  EntitySource* source = entity_source(db());
  const uint64_t before = source->entity_version(Entity::kKnowledge, agent_);
  auto r = db().write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::bump_version(c, agent_));
    int64_t pid = 0;
    PARLEY_TRY(c.query("SELECT pg_backend_pid()", {}, [&](const Row& row) { pid = row.int64(0); }));
    // Another connection ends this one's backend (waiting up to 5 s for it to go) before COMMIT.
    PARLEY_ASSIGN_OR_RETURN(Connection & other, db().read());
    return other.query("SELECT pg_terminate_backend(CAST($1 AS INTEGER), 5000)", {pid},
                       [](const Row&) {});
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(source->entity_version(Entity::kKnowledge, agent_), before + 1);
  // The pool replaced the lost connection: the next write commits.
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::bump_version(c, agent_));
    return {};
  });
  EXPECT_EQ(source->entity_version(Entity::kKnowledge, agent_), before + 2);
}

TEST_P(StoreContract, AnotherHandleSeesAChangedEntity) {
  wait_until_heard(db());
  wait_until_heard(other());
  const uint64_t seen = entity_source(other())->entity_version(Entity::kAgent, agent_);
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find_any(c, agent_));
    a->name = "Seen elsewhere";
    return AgentRepo::update(c, *a);
  });
  EXPECT_TRUE(eventually(
      [&] { return entity_source(other())->entity_version(Entity::kAgent, agent_) != seen; }));
  const uint64_t key_seen = entity_source(other())->entity_version(Entity::kKey, "key_versions");
  write([&](Connection& c) -> Result<void> {
    ApiKeyRecord k;
    k.id = "key_versions";
    k.account_id = account_;
    k.name = "versions";
    k.prefix = "svc_live_abc";
    k.fingerprint = "fp_versions";
    k.all_scopes = true;
    k.created_at = now_;
    return KeyRepo::insert(c, k);
  });
  EXPECT_TRUE(eventually([&] {
    return entity_source(other())->entity_version(Entity::kKey, "key_versions") != key_seen;
  }));
}

// A process that exits right after its change (`parley admin account set-plan`): once its handle
// is closed, every other handle already sees the change, a plan's as an agent's, with nothing to
// wait for. Several rounds: without the confirmation, the other handle's listener would often
// hear of a change only after the close returned.
TEST_P(StoreContract, AChangeIsInForceEverywhereOnceItsProcessHasClosedTheDatabase) {
  wait_until_heard(db());
  const uint64_t unconfirmed_before = PgDatabase::unconfirmed_closes();
  for (int round = 0; round < 10; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const uint64_t auth_before = db().auth_epoch();
    const uint64_t agent_before = entity_source(db())->entity_version(Entity::kAgent, agent_);
    {
      auto admin = open_closing();
      ASSERT_NE(admin, nullptr);
      auto changed = admin->write([&](Connection& c) -> Result<void> {
        PARLEY_ASSIGN_OR_RETURN(
            bool found,
            AccountRepo::set_plan(c, account_, round % 2 ? Plan::kPro : Plan::kFree, now_));
        if (!found) return ApiError::not_found("no account");
        PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find_any(c, agent_));
        a->name = "Round " + std::to_string(round);
        return AgentRepo::update(c, *a);
      });
      ASSERT_TRUE(changed.ok()) << changed.error().message;
    }
    EXPECT_NE(db().auth_epoch(), auth_before);
    EXPECT_NE(entity_source(db())->entity_version(Entity::kAgent, agent_), agent_before);
  }
  // Each close was confirmed by every listener, none waited out its 2 s.
  EXPECT_EQ(PgDatabase::unconfirmed_closes(), unconfirmed_before);
}

TEST_P(StoreContract, ATurnsCountersAreWrittenOnceAndPublishedWithTheirCounts) {
  wait_until_heard(db());
  std::mutex mu;
  std::vector<std::pair<EntityChange, uint64_t>> seen;
  entity_source(db())->add_commit_observer([&](const EntityChange& change, uint64_t version) {
    std::lock_guard lock(mu);
    seen.emplace_back(change, version);
  });
  const uint64_t before = entity_source(db())->entity_version(Entity::kAgent, agent_);
  write([&](Connection& c) { return turn(c, "cnv_one", agent_, account_, now_); });
  write([&](Connection& c) { return turn(c, "cnv_two", agent_, account_, now_); });
  std::lock_guard lock(mu);
  ASSERT_EQ(seen.size(), 2u);  // one change per commit, the agent's counters
  for (int i = 0; i < 2; ++i) {
    const auto& [change, version] = seen[i];
    EXPECT_EQ(change.kind, Entity::kAgent);
    EXPECT_EQ(change.id, agent_);
    ASSERT_TRUE(change.counts.has_value());
    EXPECT_EQ(change.counts->conversations, i + 1);
    EXPECT_EQ(change.counts->messages, 2 * (i + 1));
    EXPECT_EQ(change.counts->seq, i + 1);  // one counter statement per turn
    EXPECT_EQ(version, before + i + 1);
  }
  int64_t counts_seq = 0;
  auto agent = *find_agent_with_counts_seq(reader(), agent_, counts_seq);
  EXPECT_EQ(agent->conversations_count, 2);
  EXPECT_EQ(agent->messages_count, 4);
  EXPECT_EQ(counts_seq, 2);
}

TEST_P(StoreContract, CountersReadInsideTheUnitOfWorkIncludeItsOwnMoves) {
  int64_t inside = -1;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(AgentRepo::add_to_counter(c, agent_, AgentCounter::kLeads, 3));
    PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find_any(c, agent_));
    inside = a->leads_count;
    return AgentRepo::add_to_counter(c, agent_, AgentCounter::kLeads, -1);
  });
  EXPECT_EQ(inside, 3);
  EXPECT_EQ((*AgentRepo::find_any(reader(), agent_))->leads_count, 2);
}

TEST_P(StoreContract, AFailedUnitOfWorkPublishesNothing) {
  wait_until_heard(db());
  std::atomic<int> calls{0};
  entity_source(db())->add_commit_observer([&](const EntityChange&, uint64_t) { ++calls; });
  const uint64_t before = entity_source(db())->entity_version(Entity::kAgent, agent_);
  auto r = db().write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(AgentRepo::add_to_counter(c, agent_, AgentCounter::kMessages, 1));
    return ApiError::invalid("no");
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(entity_source(db())->entity_version(Entity::kAgent, agent_), before);
  EXPECT_EQ((*AgentRepo::find_any(reader(), agent_))->messages_count, 0);
}

TEST_P(StoreContract, ATurnsFiguresAreCountedOncePerTransaction) {
  write([&](Connection& c) { return turn(c, "cnv_fig", agent_, account_, now_); });
  const int64_t day = now_ / 86'400'000;  // the account's zone is UTC
  auto days = *FigureRepo::days(reader(), agent_, day - 1, day + 1);
  ASSERT_EQ(days.size(), 1u);
  EXPECT_EQ(days[0].figures.conversations, 1);
  EXPECT_EQ(days[0].figures.visitor_messages, 1);
  EXPECT_EQ(days[0].figures.agent_replies, 1);
}

}  // namespace
}  // namespace parley
