#include "domain/agent_cache.h"

#include <mutex>

#include "domain/agents.h"

namespace parley {

Result<std::shared_ptr<const AgentRecord>> AgentCache::get(std::string_view account_id,
                                                           std::string_view agent_id) {
  // Read before loading: a write committed meanwhile leaves the entry tagged older, so the next
  // read reloads it.
  const uint64_t epoch = db_.data_epoch();
  std::shared_ptr<const AgentRecord> agent;
  {
    std::shared_lock lock(mu_);
    auto it = entries_.find(agent_id);
    if (it != entries_.end() && it->second.epoch == epoch) agent = it->second.agent;
  }
  if (!agent) {
    PARLEY_ASSIGN_OR_RETURN(Connection& c, db_.read());
    PARLEY_ASSIGN_OR_RETURN(auto loaded, AgentRepo::find_any(c, agent_id));
    if (!loaded) return ApiError::not_found("No agent " + std::string(agent_id) + " in this account.");
    agent = std::make_shared<const AgentRecord>(std::move(*loaded));
    std::unique_lock lock(mu_);
    if (entries_.size() >= kMaxEntries) entries_.clear();
    entries_.insert_or_assign(std::string(agent_id), Entry{epoch, agent});
  }
  if (agent->account_id != account_id) {
    return ApiError::not_found("No agent " + std::string(agent_id) + " in this account.");
  }
  return agent;
}

}  // namespace parley
