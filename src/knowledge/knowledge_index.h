// The Retriever the reply engines use: one AgentIndex per agent, held in memory as a cache of the
// database (knowledge/versioned_cache.h): rebuilt from the agent's trained sources when its
// knowledge version moved (another node trained or deleted a source, or the agent was never
// loaded) or its language or synonyms changed, since they decide how the knowledge is analysed.
// Changes made by this node are applied in place, so the index follows them without a rebuild.
// Thread-safe: queries of one agent share its lock; applying a change or a rebuild takes it alone.
#pragma once

#include <string>

#include "knowledge/agent_index.h"
#include "knowledge/retriever.h"
#include "knowledge/versioned_cache.h"
#include "store/db.h"
#include "store/source_repo.h"

namespace parley {

class KnowledgeIndex final : public Retriever {
 public:
  explicit KnowledgeIndex(Database& db) : db_(db), cache_(db) {}

  std::vector<RetrievedChunk> search(std::string_view agent_id, const KnowledgeSettings& settings,
                                     std::string_view query, size_t k) const override;
  std::vector<QaMatch> match_qa(std::string_view agent_id, const KnowledgeSettings& settings,
                                std::string_view query, size_t k) const override;
  KnowledgeAnswer answer(std::string_view agent_id, const KnowledgeSettings& settings,
                         std::string_view question, size_t max_sentences) const override;
  std::vector<QaMatch> match_qa(std::string_view agent_id, const KnowledgeSettings& settings,
                                const AnalyzedText& query, size_t k) const override;
  KnowledgeAnswer answer(std::string_view agent_id, const KnowledgeSettings& settings,
                         const AnalyzedText& question, size_t max_sentences) const override;

  // A source became trained, and the agent's knowledge version became `version`.
  void source_trained(const SourceRecord& source, int64_t version);
  // A source left the agent's knowledge (deleted, or a Q&A answer replaced) at `version`.
  void source_removed(std::string_view agent_id, std::string_view source_id, int64_t version);

  // Heap bytes held by every loaded agent's index (approximate).
  size_t memory_bytes() const;

 private:
  // Whether an index analysed by one agent's settings serves another's (language and synonyms).
  struct SameAnalysis {
    bool operator()(const KnowledgeSettings& a, const KnowledgeSettings& b) const {
      return a.language == b.language && a.synonyms == b.synonyms;
    }
  };
  // Runs `fn` on the agent's index once it reflects the database's version and `settings`.
  template <typename Fn>
  auto with_current(std::string_view agent_id, const KnowledgeSettings& settings, Fn fn) const;

  Database& db_;
  VersionedCache<AgentIndex, KnowledgeSettings, SameAnalysis> cache_;
};

IndexedSource indexed_source(const SourceRecord& s);

}  // namespace parley
