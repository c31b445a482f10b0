#include "knowledge/vector_index.h"

#include "core/log.h"
#include "store/source_repo.h"

namespace parley {

std::shared_ptr<VectorIndex::Entry> VectorIndex::entry(std::string_view agent_id,
                                                       bool create) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(std::string(agent_id));
  if (it != entries_.end()) return it->second;
  if (!create) return nullptr;
  auto e = std::make_shared<Entry>();
  entries_.emplace(std::string(agent_id), e);
  return e;
}

void VectorIndex::reload(std::string_view agent_id, std::string_view model, Entry& e,
                         int64_t version) const {
  auto reader = db_.read();
  if (!reader.ok()) {
    log_error("vector index reload failed",
              {{"agentId", agent_id}, {"error", std::string_view(reader.error().message)}});
    return;
  }
  auto sources = SourceRepo::list_trained(*reader, agent_id);
  auto vectors = sources.ok() ? ChunkEmbeddingRepo::list_trained(*reader, agent_id, model)
                              : Result<std::vector<ChunkVector>>(sources.error());
  if (!vectors.ok()) {
    log_error("vector index reload failed",
              {{"agentId", agent_id}, {"error", std::string_view(vectors.error().message)}});
    return;
  }
  // Both lists are read outside one transaction: a source trained in between has no vectors
  // here, and moves the version on, so the next query reloads.
  std::unordered_map<std::string, std::vector<ChunkVector>> by_source;
  for (auto& v : *vectors) {
    std::string source_id = v.source_id;  // v moves into the list its own id keys
    by_source[source_id].push_back(std::move(v));
  }
  e.set = VectorSet();
  for (auto& s : *sources) {
    auto it = by_source.find(s.id);
    if (s.type == "qa" || it == by_source.end()) continue;
    e.set.add({s.id, s.type, s.title, s.url, s.content.value_or("")}, it->second);
  }
  e.set.shrink_to_fit();
  e.version = version;
  e.model = std::string(model);
}

template <typename Fn>
auto VectorIndex::with_current(std::string_view agent_id, std::string_view model, Fn fn) const {
  auto reader = db_.read();
  auto version =
      reader.ok() ? SourceRepo::version(*reader, agent_id) : Result<int64_t>(reader.error());
  auto e = entry(agent_id, true);
  if (version.ok()) {
    std::shared_lock read(e->mu);
    if (e->version == *version && e->model == model) return fn(e->set);
  }
  {
    std::unique_lock write(e->mu);
    if (version.ok() && (e->version != *version || e->model != model))
      reload(agent_id, model, *e, *version);
  }
  std::shared_lock read(e->mu);
  if (e->model != model) return fn(VectorSet());  // the reload failed: nothing of this model
  return fn(e->set);
}

std::vector<RetrievedChunk> VectorIndex::search(std::string_view agent_id, std::string_view model,
                                                const std::vector<float>& query, size_t k) const {
  return with_current(agent_id, model, [&](const VectorSet& set) { return set.search(query, k); });
}

size_t VectorIndex::rows(std::string_view agent_id, std::string_view model) const {
  return with_current(agent_id, model, [](const VectorSet& set) { return set.rows(); });
}

void VectorIndex::source_trained(std::string_view agent_id, std::string_view model,
                                 VectorSource source, const std::vector<ChunkVector>& vectors,
                                 int64_t version) {
  auto e = entry(agent_id, false);
  if (!e) return;
  std::unique_lock lock(e->mu);
  if (e->version != version - 1) return;  // behind already: the next query reloads
  // A source without vectors of the set's model (a Q&A pair, a failed embedding, another
  // model) leaves the set as it is, at the new version.
  if (!vectors.empty() && e->model == model) e->set.add(std::move(source), vectors);
  e->version = version;
}

void VectorIndex::source_removed(std::string_view agent_id, std::string_view source_id,
                                 int64_t version) {
  auto e = entry(agent_id, false);
  if (!e) return;
  std::unique_lock lock(e->mu);
  // Removed at once even when the set is behind; a stale set is reloaded on its next query.
  e->set.remove(source_id);
  if (e->version == version - 1) e->version = version;
}

void VectorIndex::invalidate(std::string_view agent_id) {
  auto e = entry(agent_id, false);
  if (!e) return;
  std::unique_lock lock(e->mu);
  e->version = -1;
}

size_t VectorIndex::memory_bytes() const {
  std::lock_guard lock(mu_);
  size_t bytes = 0;
  for (const auto& [id, e] : entries_) {
    std::shared_lock read(e->mu);
    bytes += e->set.memory_bytes();
  }
  return bytes;
}

}  // namespace parley
