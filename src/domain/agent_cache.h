// A read-through cache of agents with their settings read (domain/agents.h's LoadedAgent), for
// the hottest reads: GET /api/v1/agents/{agentId}, every chat turn and every widget request. An
// entry is served while the agent's version (EntitySource::entity_version, Entity::kAgent, of
// store/entity_versions.h) has not
// moved since it was loaded: a commit that changed the agent, in any process sharing the
// database, moves it, while writes of other rows (another agent, a conversation, a contact) do
// not, so reads stay exactly as fresh as reading the database (an acknowledged write is always
// seen) without reloading on every write.
//
// A commit that changed only the agent's counters (a chat turn) hands the entry its new counts
// instead (EntitySource::add_commit_observer): when the entry was current just before that commit,
// it takes the counts (the newest by AgentCounts::seq) and stays current, so an agent in a storm
// of replies is still served from memory. A reload whose settings text has not changed keeps the
// settings already read, so settings are parsed once per change. Thread-safe.
#pragma once

#include <atomic>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "core/string_map.h"
#include "domain/agents.h"
#include "store/agent_repo.h"
#include "store/entity_versions.h"

namespace parley {

class AgentCache {
 public:
  explicit AgentCache(Database& db);

  // The agent when it belongs to the account; 404 otherwise, as get_agent.
  Result<std::shared_ptr<const LoadedAgent>> get(std::string_view account_id,
                                                 std::string_view agent_id);
  // Any account's agent (the widget knows agents by id alone); null when there is none.
  Result<std::shared_ptr<const LoadedAgent>> find_any(std::string_view agent_id);
  // The agent if the cache holds it as of the agent's current version, without reading the
  // database; null otherwise (then get() reads it). For callers that must not block.
  std::shared_ptr<const LoadedAgent> fresh(std::string_view agent_id);
  // How many times an agent was read from the database (misses), for /metrics.
  uint64_t loads() const { return loads_.load(std::memory_order_relaxed); }

 private:
  static constexpr size_t kMaxEntries = 10'000;
  struct Entry {
    uint64_t version;
    std::shared_ptr<const LoadedAgent> agent;
    int64_t counts_seq = 0;  // of the counts the agent's record holds
  };
  // Shared with the commit observer, which may outlive the cache.
  struct State {
    std::shared_mutex mu;
    StringMap<Entry> entries;  // by agent id
    void on_commit(const EntityChange& change, uint64_t version);
  };

  uint64_t version(std::string_view agent_id) const;

  Database& db_;
  EntitySource* const source_;  // null: versions are the data epoch (a test's stand-in database)
  std::shared_ptr<State> state_ = std::make_shared<State>();
  std::atomic<uint64_t> loads_{0};
};

}  // namespace parley
