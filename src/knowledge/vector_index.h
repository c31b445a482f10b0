// The embedding vectors of agents' chunks, held in memory as a cache of the database
// (chunk_embeddings), for the vector half of hybrid retrieval. Like KnowledgeIndex, each query
// reads the agent's knowledge version (one primary-key read): when it differs from the cached
// one, or the agent asks for another embedding model than the cached vectors', the agent's
// VectorSet is reloaded from its trained sources and their stored vectors of that model. Changes
// made by this node's trainer are applied in place, so the cache follows them without a reload.
// Thread-safe: queries of one agent share its lock; applying a change or a reload takes it alone.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "knowledge/vector_set.h"
#include "store/db.h"

namespace parley {

class VectorIndex {
 public:
  explicit VectorIndex(Database& db) : db_(db) {}

  // Up to `k` of the agent's chunks closest to `query` among the vectors of `model`, best first.
  std::vector<RetrievedChunk> search(std::string_view agent_id, std::string_view model,
                                     const std::vector<float>& query, size_t k) const;
  // How many of the agent's chunks have a vector of `model` (0: no need to embed a question).
  size_t rows(std::string_view agent_id, std::string_view model) const;

  // The trainer trained a source of the agent, whose knowledge version became `version`, with
  // these vectors of `model` (none: a Q&A pair, an agent without embeddings, a failed call).
  void source_trained(std::string_view agent_id, std::string_view model, VectorSource source,
                      const std::vector<ChunkVector>& vectors, int64_t version);
  // A source left the agent's knowledge at `version`.
  void source_removed(std::string_view agent_id, std::string_view source_id, int64_t version);
  // The agent's stored vectors changed besides its knowledge version: reload on the next query.
  void invalidate(std::string_view agent_id);

  // Heap bytes held by every loaded agent's vectors (approximate).
  size_t memory_bytes() const;

 private:
  struct Entry {
    mutable std::shared_mutex mu;
    int64_t version = -1;  // the knowledge version the set reflects; -1 before loading
    std::string model;     // the model of the set's vectors
    VectorSet set;
  };

  std::shared_ptr<Entry> entry(std::string_view agent_id, bool create) const;
  template <typename Fn>
  auto with_current(std::string_view agent_id, std::string_view model, Fn fn) const;
  void reload(std::string_view agent_id, std::string_view model, Entry& e, int64_t version) const;

  Database& db_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<Entry>> entries_;
};

}  // namespace parley
