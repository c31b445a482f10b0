#include "store/agent_repo.h"

#include "store/agent_counts.h"
#include "store/entity_changes.h"
#include "store/pipelined.h"

#include <array>
#include <memory>

namespace parley {

namespace {
#define AGENT_COLUMNS                                                                              \
  "id, account_id, name, private, settings, status, trained_at, characters, conversations_count, " \
  "messages_count, leads_count, sources_count, created_at, updated_at"
// What is read: the columns an insert writes, then the identity secret (written on its own).
#define AGENT_READ_COLUMNS AGENT_COLUMNS ", identity_secret, identity_secret_at"

AgentRecord read_agent(const Row& r) {
  AgentRecord a;
  a.id = r.text(0);
  a.account_id = r.text(1);
  a.name = r.text(2);
  a.is_private = r.boolean(3);
  a.settings = r.text(4);
  a.status = r.text(5);
  a.trained_at = r.opt_int64(6);
  a.characters = r.int64(7);
  a.conversations_count = r.int64(8);
  a.messages_count = r.int64(9);
  a.leads_count = r.int64(10);
  a.sources_count = r.int64(11);
  a.created_at = r.int64(12);
  a.updated_at = r.int64(13);
  a.identity_secret_sealed = r.opt_text(14);
  a.identity_secret_at = r.opt_int64(15);
  return a;
}

constexpr std::string_view kCountsKey = "agent-counts:";

// Moves the agent's counters by `deltas` (by AgentCounter) in one statement. Nothing waits for
// the counts: they reach the unit of work's changes when the answer comes back (with COMMIT at
// the end of a chat turn), before the commit is published; so does `found`, when given.
Result<void> move_counters(Connection& c, const std::string& agent_id,
                           const std::array<int64_t, 4>& deltas, bool* found) {
  return query_later(
      c,
      "UPDATE agents SET conversations_count = conversations_count + $2,"
      " messages_count = messages_count + $3, leads_count = leads_count + $4,"
      " sources_count = sources_count + $5, counts_seq = counts_seq + 1 WHERE id = $1"
      " RETURNING conversations_count, messages_count, leads_count, sources_count, counts_seq",
      {agent_id, deltas[0], deltas[1], deltas[2], deltas[3]},
      [conn = &c, id = agent_id, found](const Row& r) {
        if (found != nullptr) *found = true;
        record_change(*conn, Entity::kAgent, id,
                      AgentCounts{r.int64(0), r.int64(1), r.int64(2), r.int64(3), r.int64(4)});
      });
}

// An agent's counter deltas in one unit of work, written by one statement at its end.
class CounterDeltas final : public Deferred {
 public:
  explicit CounterDeltas(std::string agent_id) : agent_id_(std::move(agent_id)) {}
  void add(const std::array<int64_t, 4>& deltas) {
    for (size_t i = 0; i < deltas.size(); ++i) deltas_[i] += deltas[i];
  }

  Result<void> run(Connection& c) override {
    if (deltas_ == std::array<int64_t, 4>{}) return {};
    PARLEY_TRY(move_counters(c, agent_id_, deltas_, nullptr));
    deltas_ = {};
    return {};
  }

 private:
  std::string agent_id_;
  std::array<int64_t, 4> deltas_{};  // by AgentCounter
};

// Adds `deltas` (by AgentCounter) to what the unit of work writes at its end (at once outside one).
Result<void> add_counters(Connection& c, std::string_view id,
                          const std::array<int64_t, 4>& deltas) {
  std::string key = std::string(kCountsKey).append(id);
  if (auto* pending = static_cast<CounterDeltas*>(find_deferred(c, key))) {
    pending->add(deltas);
    return {};
  }
  auto pending = std::make_unique<CounterDeltas>(std::string(id));
  pending->add(deltas);
  return defer(c, std::move(key), std::move(pending));
}

// Writes the counters deferred on this connection before a read of agents sees them.
Result<void> flush_counters(Connection& c) { return run_deferred_now(c, kCountsKey); }
}  // namespace

Result<void> AgentRepo::insert(Connection& c, const AgentRecord& a) {
  PARLEY_TRY(c.execute("INSERT INTO agents (" AGENT_COLUMNS
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                       {a.id, a.account_id, a.name, int64_t{a.is_private}, a.settings, a.status,
                        db_opt(a.trained_at), a.characters, a.conversations_count, a.messages_count,
                        a.leads_count, a.sources_count, a.created_at, a.updated_at}));
  record_change(c, Entity::kAgent, a.id);
  return {};
}

Result<std::optional<AgentRecord>> AgentRepo::find(Connection& c, std::string_view account_id,
                                                   std::string_view id) {
  std::optional<AgentRecord> out;
  PARLEY_TRY(flush_counters(c));
  PARLEY_TRY(c.query("SELECT " AGENT_READ_COLUMNS " FROM agents WHERE id = $1 AND account_id = $2",
                     {id, account_id}, [&](const Row& r) { out = read_agent(r); }));
  return out;
}

Result<std::optional<AgentRecord>> AgentRepo::find_any(Connection& c, std::string_view id) {
  std::optional<AgentRecord> out;
  PARLEY_TRY(flush_counters(c));
  PARLEY_TRY(c.query("SELECT " AGENT_READ_COLUMNS " FROM agents WHERE id = $1", {id},
                     [&](const Row& r) { out = read_agent(r); }));
  return out;
}

Result<std::vector<AgentRecord>> AgentRepo::list(Connection& c, std::string_view account_id) {
  std::vector<AgentRecord> out;
  PARLEY_TRY(flush_counters(c));
  PARLEY_TRY(c.query("SELECT " AGENT_READ_COLUMNS
                     " FROM agents WHERE account_id = $1 ORDER BY created_at DESC, id DESC",
                     {account_id}, [&](const Row& r) { out.push_back(read_agent(r)); }));
  return out;
}

Result<bool> AgentRepo::lock(Connection& c, std::string_view id) {
  return c.lock_row("agents", id);
}

Result<void> AgentRepo::lock_later(Connection& c, std::string_view id, bool& found) {
  return lock_row_later(c, "agents", id, found);
}

Result<void> AgentRepo::update(Connection& c, const AgentRecord& a) {
  PARLEY_TRY(c.execute(
      "UPDATE agents SET name = $2, private = $3, settings = $4, status = $5, trained_at = $6,"
      " characters = $7, updated_at = $8 WHERE id = $1",
      {a.id, a.name, int64_t{a.is_private}, a.settings, a.status, db_opt(a.trained_at),
       a.characters, a.updated_at}));
  record_change(c, Entity::kAgent, a.id);
  return {};
}

Result<void> AgentRepo::set_identity_secret(Connection& c, std::string_view id,
                                            std::string_view sealed, int64_t at) {
  PARLEY_TRY(
      c.execute("UPDATE agents SET identity_secret = $2, identity_secret_at = $3 WHERE id = $1",
                {id, sealed, at}));
  record_change(c, Entity::kAgent, id);
  return {};
}

Result<std::vector<std::pair<std::string, std::string>>>
AgentRepo::identity_secrets_sealed_by_others(Connection& c, std::string_view key_id,
                                             int64_t limit) {
  // "v1.<16 hex digits of the key id>.<...>"
  std::vector<std::pair<std::string, std::string>> out;
  PARLEY_TRY(
      c.query("SELECT id, substr(identity_secret, 4, 16) FROM agents"
              " WHERE identity_secret IS NOT NULL AND substr(identity_secret, 4, 16) <> $1"
              " ORDER BY id LIMIT $2",
              {key_id, limit}, [&](const Row& r) { out.emplace_back(r.text(0), r.text(1)); }));
  return out;
}

Result<void> AgentRepo::add_to_counter(Connection& c, std::string_view id, AgentCounter counter,
                                       int64_t delta) {
  std::array<int64_t, 4> deltas{};
  deltas[static_cast<size_t>(counter)] = delta;
  return add_counters(c, id, deltas);
}

Result<void> AgentRepo::lock_counting_later(Connection& c, std::string_view id,
                                            const std::array<int64_t, 4>& expected, bool& found) {
  found = false;
  // The update takes the row's FOR NO KEY UPDATE lock, the one lock() and lock_later() take
  // (Connection::lock_row): later locks of the row in the unit of work wait for nothing.
  PARLEY_TRY(move_counters(c, std::string(id), expected, &found));
  // The counts added from here on, less those already written.
  std::array<int64_t, 4> written{};
  for (size_t i = 0; i < expected.size(); ++i) written[i] = -expected[i];
  return add_counters(c, id, written);
}

Result<std::optional<AgentRecord>> find_agent_with_counts_seq(Connection& c, std::string_view id,
                                                              int64_t& counts_seq) {
  PARLEY_TRY(flush_counters(c));
  std::optional<AgentRecord> out;
  PARLEY_TRY(c.query("SELECT " AGENT_READ_COLUMNS ", counts_seq FROM agents WHERE id = $1", {id},
                     [&](const Row& r) {
                       out = read_agent(r);
                       counts_seq = r.int64(16);
                     }));
  return out;
}

}  // namespace parley
