#include "knowledge/vector_index.h"

#include "core/log.h"
#include "store/source_repo.h"

namespace parley {

bool VectorIndex::reload(std::string_view agent_id, std::string_view model, VectorSet& set) const {
  auto reader = db_.read();
  if (!reader.ok()) {
    log_error("vector index reload failed",
              {{"agentId", agent_id}, {"error", std::string_view(reader.error().message)}});
    return false;
  }
  auto sources = SourceRepo::list_trained(*reader, agent_id);
  auto vectors = sources.ok() ? ChunkEmbeddingRepo::list_trained(*reader, agent_id, model)
                              : Result<std::vector<ChunkVector>>(sources.error());
  if (!vectors.ok()) {
    log_error("vector index reload failed",
              {{"agentId", agent_id}, {"error", std::string_view(vectors.error().message)}});
    return false;
  }
  // Both lists are read outside one transaction: a source trained in between has no vectors
  // here, and moves the version on, so the next query reloads.
  std::unordered_map<std::string, std::vector<ChunkVector>> by_source;
  for (auto& v : *vectors) {
    std::string source_id = v.source_id;  // v moves into the list its own id keys
    by_source[source_id].push_back(std::move(v));
  }
  set = VectorSet();
  for (auto& s : *sources) {
    auto it = by_source.find(s.id);
    if (s.type == "qa" || it == by_source.end()) continue;
    set.add({s.id, s.type, s.title, s.url, s.content.value_or("")}, it->second);
  }
  set.shrink_to_fit();
  return true;
}

template <typename Fn>
auto VectorIndex::with_current(std::string_view agent_id, std::string_view model, Fn fn) const {
  // A set of another model (or none, after a failed first load) serves nothing of this one.
  auto load = [&](VectorSet& set, int64_t) { return reload(agent_id, model, set); };
  return cache_.with_current(agent_id, std::string(model), load, fn);
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
  cache_.advance(agent_id, version, [&](VectorSet& set, const std::string& set_model) {
    // A source without vectors of the set's model (a Q&A pair, a failed embedding, another
    // model) leaves the set as it is, at the new version.
    if (!vectors.empty() && set_model == model) set.add(std::move(source), vectors);
    return true;
  });
}

void VectorIndex::source_removed(std::string_view agent_id, std::string_view source_id,
                                 int64_t version) {
  cache_.remove(agent_id, version, [&](VectorSet& set) {
    set.remove(source_id);
    return true;
  });
}

void VectorIndex::invalidate(std::string_view agent_id) { cache_.invalidate(agent_id); }

size_t VectorIndex::memory_bytes() const { return cache_.measure_all(); }

}  // namespace parley
