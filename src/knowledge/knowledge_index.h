// The Retriever the reply engines use: one AgentIndex per agent, held in memory as a cache of the
// database. Each query reads the agent's knowledge version (one primary-key read); when it differs
// from the cached one (another node trained or deleted a source, or the agent was never loaded)
// the agent's index is rebuilt from its trained sources; so it is when the agent's language or
// synonyms changed, since they decide how the knowledge is analysed. Changes made by this node are
// applied in place, so the index follows them without a rebuild.
// Thread-safe: queries of one agent share its lock; applying a change or a rebuild takes it alone.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "knowledge/agent_index.h"
#include "knowledge/retriever.h"
#include "store/db.h"
#include "store/source_repo.h"

namespace parley {

class KnowledgeIndex final : public Retriever {
 public:
  explicit KnowledgeIndex(Database& db) : db_(db) {}

  std::vector<RetrievedChunk> search(std::string_view agent_id, const KnowledgeSettings& settings,
                                     std::string_view query, size_t k) const override;
  std::vector<QaMatch> match_qa(std::string_view agent_id, const KnowledgeSettings& settings,
                                std::string_view query, size_t k) const override;
  KnowledgeAnswer answer(std::string_view agent_id, const KnowledgeSettings& settings,
                         std::string_view question, size_t max_sentences) const override;

  // A source became trained, and the agent's knowledge version became `version`.
  void source_trained(const SourceRecord& source, int64_t version);
  // A source left the agent's knowledge (deleted, or a Q&A answer replaced) at `version`.
  void source_removed(std::string_view agent_id, std::string_view source_id, int64_t version);

  // Heap bytes held by every loaded agent's index (approximate).
  size_t memory_bytes() const;

 private:
  struct Entry {
    mutable std::shared_mutex mu;
    int64_t version = -1;  // the knowledge version the index reflects; -1 before loading
    KnowledgeSettings settings;  // what the index was analysed by
    AgentIndex index;
  };

  std::shared_ptr<Entry> entry(std::string_view agent_id, bool create) const;
  // Runs `fn` on the agent's index under a shared lock once it reflects the database's version.
  template <typename Fn>
  auto with_current(std::string_view agent_id, const KnowledgeSettings& settings, Fn fn) const;
  void rebuild(std::string_view agent_id, Entry& e, int64_t version, const KnowledgeSettings& settings) const;

  Database& db_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<Entry>> entries_;
};

IndexedSource indexed_source(const SourceRecord& s);

}  // namespace parley
