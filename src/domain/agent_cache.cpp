#include "domain/agent_cache.h"

#include <mutex>

#include "store/agent_counts.h"

namespace parley {

AgentCache::AgentCache(Database& db) : db_(db), source_(entity_source(db)) {
  if (source_ == nullptr) return;
  source_->add_commit_observer(
      [state = std::weak_ptr<State>(state_)](const EntityChange& change, uint64_t version) {
        if (auto s = state.lock()) s->on_commit(change, version);
      });
}

uint64_t AgentCache::version(std::string_view agent_id) const {
  return source_ != nullptr ? source_->entity_version(Entity::kAgent, agent_id) : db_.data_epoch();
}

void AgentCache::State::on_commit(const EntityChange& change, uint64_t version) {
  // Any other change moved the version: the entry is stale by itself.
  if (change.kind != Entity::kAgent || !change.counts) return;
  std::unique_lock lock(mu);
  auto it = entries.find(change.id);
  // Current just before this commit: nothing else changed the agent since it was loaded.
  if (it == entries.end() || it->second.version + 1 != version) return;
  Entry& e = it->second;
  e.version = version;
  const AgentCounts& n = *change.counts;
  if (n.seq <= e.counts_seq) return;  // the entry already has these counts or newer ones
  LoadedAgent next{e.agent->record, e.agent->settings, e.agent->keywords};
  next.record.conversations_count = n.conversations;
  next.record.messages_count = n.messages;
  next.record.leads_count = n.leads;
  next.record.sources_count = n.sources;
  e.agent = std::make_shared<const LoadedAgent>(std::move(next));
  e.counts_seq = n.seq;
}

Result<std::shared_ptr<const LoadedAgent>> AgentCache::find_any(std::string_view agent_id) {
  // Read before loading: a write committed meanwhile leaves the entry tagged older, so the next
  // read reloads it.
  const uint64_t version = this->version(agent_id);
  std::shared_ptr<const LoadedAgent> cached;
  {
    std::shared_lock lock(state_->mu);
    auto it = state_->entries.find(agent_id);
    if (it != state_->entries.end()) {
      if (it->second.version == version) return it->second.agent;
      cached = it->second.agent;
    }
  }
  loads_.fetch_add(1, std::memory_order_relaxed);
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db_.read());
  int64_t counts_seq = 0;
  PARLEY_ASSIGN_OR_RETURN(auto loaded, find_agent_with_counts_seq(c, agent_id, counts_seq));
  if (!loaded) return std::shared_ptr<const LoadedAgent>();
  std::shared_ptr<const LoadedAgent> agent;
  if (cached && cached->record.settings == loaded->settings) {
    agent = with_settings_of(std::move(*loaded), *cached);
  } else {
    agent = load_settings(std::move(*loaded));
  }
  std::unique_lock lock(state_->mu);
  if (state_->entries.size() >= kMaxEntries) state_->entries.clear();
  state_->entries.insert_or_assign(std::string(agent_id), Entry{version, agent, counts_seq});
  return agent;
}

std::shared_ptr<const LoadedAgent> AgentCache::fresh(std::string_view agent_id) {
  const uint64_t version = this->version(agent_id);
  std::shared_lock lock(state_->mu);
  auto it = state_->entries.find(agent_id);
  if (it == state_->entries.end() || it->second.version != version) return nullptr;
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
