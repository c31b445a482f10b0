// The embedding vectors of agents' chunks, held in memory as a cache of the database
// (chunk_embeddings), for the vector half of hybrid retrieval: a VersionedCache keyed by the
// embedding model, so a query asking for another model than the cached vectors' reloads the
// agent's VectorSet from its trained sources and their stored vectors of that model. Changes made
// by this node's trainer are applied in place, so the cache follows them without a reload.
// The vectors count against the knowledge's memory budget (knowledge/memory_budget.h) with the
// agents' BM25 indexes: an agent's vectors may leave memory before its index, or after it, by
// which was used last; they load again on the agent's next question.
// Thread-safe: queries of one agent share its lock; applying a change or a reload takes it alone.
#pragma once

#include <string>

#include "knowledge/vector_set.h"
#include "knowledge/versioned_cache.h"
#include "store/db.h"

namespace parley {

class VectorIndex {
 public:
  // `budget`: shared with the BM25 indexes (KnowledgeIndex); null: every set stays loaded.
  explicit VectorIndex(Database& db, MemoryBudget* budget = nullptr)
      : db_(db), cache_(db, budget, [](const VectorSet& set) { return set.memory_bytes(); }) {}

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
  // What the cache holds and has done (bytes as counted against the budget; 0 without one).
  CacheFigures figures() const { return cache_.figures(); }

 private:
  template <typename Fn>
  auto with_current(std::string_view agent_id, std::string_view model, Fn fn) const;
  // Loads the agent's trained sources and their stored vectors of `model`; false on a failure.
  bool reload(std::string_view agent_id, std::string_view model, VectorSet& set) const;

  Database& db_;
  VersionedCache<VectorSet, std::string> cache_;  // keyed by the vectors' model
};

}  // namespace parley
