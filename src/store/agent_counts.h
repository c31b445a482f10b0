// An agent read with the sequence of its counters (agents.counts_seq, migration 0049), for the
// agent cache (domain/agent_cache.h), which takes a commit's published counts only when they are
// newer than those it holds (store/entity_changes.h AgentCounts).
// Stateless; runs on the connection it is given.
#pragma once

#include <optional>
#include <string_view>

#include "store/agent_repo.h"

namespace parley {

// As AgentRepo::find_any, also setting `counts_seq` when the agent is found.
Result<std::optional<AgentRecord>> find_agent_with_counts_seq(Connection& c, std::string_view id,
                                                              int64_t& counts_seq);

}  // namespace parley
