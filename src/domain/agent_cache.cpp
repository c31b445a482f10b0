#include "domain/agent_cache.h"

#include <mutex>

namespace parley {

Result<std::shared_ptr<const LoadedAgent>> AgentCache::find_any(std::string_view agent_id) {
  // Read before loading: a write committed meanwhile leaves the entry tagged older, so the next
  // read reloads it.
  const uint64_t epoch = db_.data_epoch();
  std::shared_ptr<const LoadedAgent> cached;
  {
    std::shared_lock lock(mu_);
    auto it = entries_.find(agent_id);
    if (it != entries_.end()) {
      if (it->second.epoch == epoch) return it->second.agent;
      cached = it->second.agent;
    }
  }
  PARLEY_ASSIGN_OR_RETURN(Connection& c, db_.read());
  PARLEY_ASSIGN_OR_RETURN(auto loaded, AgentRepo::find_any(c, agent_id));
  if (!loaded) return std::shared_ptr<const LoadedAgent>();
  std::shared_ptr<const LoadedAgent> agent;
  if (cached && cached->record.settings == loaded->settings) {
    agent = with_settings_of(std::move(*loaded), *cached);
  } else {
    agent = load_settings(std::move(*loaded));
  }
  std::unique_lock lock(mu_);
  if (entries_.size() >= kMaxEntries) entries_.clear();
  entries_.insert_or_assign(std::string(agent_id), Entry{epoch, agent});
  return agent;
}

std::shared_ptr<const LoadedAgent> AgentCache::fresh(std::string_view agent_id) {
  const uint64_t epoch = db_.data_epoch();
  std::shared_lock lock(mu_);
  auto it = entries_.find(agent_id);
  if (it == entries_.end() || it->second.epoch != epoch) return nullptr;
  return it->second.agent;
}

Result<std::shared_ptr<const LoadedAgent>> AgentCache::get(std::string_view account_id,
                                                           std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto agent, find_any(agent_id));
  if (!agent || agent->record.account_id != account_id) {
    return ApiError::not_found("No agent " + std::string(agent_id) + " in this account.");
  }
  return agent;
}

}  // namespace parley
