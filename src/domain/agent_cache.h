// A read-through cache of agents with their settings read (domain/agents.h's LoadedAgent), for
// the hottest reads: GET /api/v1/agents/{agentId}, every chat turn and every widget request. An
// entry is served while the database's data epoch has not moved since it was loaded; any
// committed write of any process sharing the database moves the epoch and so invalidates every
// entry, which keeps reads exactly as fresh as reading the database (an acknowledged write is
// always seen). A reload whose settings text has not changed keeps the settings already read, so
// settings are parsed once per change, not once per write to the database. Thread-safe.
#pragma once

#include "core/string_map.h"

#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "domain/agents.h"
#include "store/agent_repo.h"

namespace parley {

class AgentCache {
 public:
  explicit AgentCache(Database& db) : db_(db) {}

  // The agent when it belongs to the account; 404 otherwise, as get_agent.
  Result<std::shared_ptr<const LoadedAgent>> get(std::string_view account_id,
                                                 std::string_view agent_id);
  // Any account's agent (the widget knows agents by id alone); null when there is none.
  Result<std::shared_ptr<const LoadedAgent>> find_any(std::string_view agent_id);
  // The agent if the cache holds it as of the database's current epoch, without reading the
  // database; null otherwise (then get() reads it). For callers that must not block.
  std::shared_ptr<const LoadedAgent> fresh(std::string_view agent_id);

 private:
  static constexpr size_t kMaxEntries = 10'000;
  struct Entry {
    uint64_t epoch;
    std::shared_ptr<const LoadedAgent> agent;
  };

  Database& db_;
  std::shared_mutex mu_;
  StringMap<Entry> entries_;  // by agent id
};

}  // namespace parley
