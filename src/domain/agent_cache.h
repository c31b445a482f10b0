// A read-through cache of agents for the hottest read, GET /api/v1/agents/{agentId}. An entry is
// served while the database's data epoch has not moved since it was loaded; any committed write
// of any process sharing the database moves the epoch and so invalidates every entry, which keeps
// reads exactly as fresh as reading the database (an acknowledged write is always seen).
// Thread-safe.
#pragma once

#include "core/string_map.h"

#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "store/agent_repo.h"

namespace parley {

class AgentCache {
 public:
  explicit AgentCache(Database& db) : db_(db) {}

  // The agent when it belongs to the account; 404 otherwise, as get_agent.
  Result<std::shared_ptr<const AgentRecord>> get(std::string_view account_id,
                                                 std::string_view agent_id);

 private:
  static constexpr size_t kMaxEntries = 10'000;
  struct Entry {
    uint64_t epoch;
    std::shared_ptr<const AgentRecord> agent;
  };

  Database& db_;
  std::shared_mutex mu_;
  StringMap<Entry> entries_;  // by agent id
};

}  // namespace parley
