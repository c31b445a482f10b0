// The Retriever the reply engines use: one AgentIndex per agent, held in memory as a cache of the
// database (knowledge/versioned_cache.h) within a memory budget shared by every tenant, and with
// the agents' embedding vectors (knowledge/memory_budget.h): past it, the least recently asked
// agents' indexes or vectors are dropped. An index is loaded when its knowledge
// version moved (another node trained or deleted a source), when the agent was never loaded or
// was dropped, or when its language or synonyms changed (they decide how the knowledge is
// analysed): from the agent's persisted form (knowledge/index_form.h, table
// knowledge_index_forms) when one of the current version and analysis is stored, read in one
// pass; otherwise rebuilt from the agent's trained sources, and its form stored for the next
// load. Forms are written at training time (persist(), called by the trainer). Changes made by
// this node are applied in place, so the index follows them without a load.
// Thread-safe: queries of one agent share its lock; applying a change or a load takes it alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/clock.h"
#include "knowledge/agent_index.h"
#include "knowledge/retriever.h"
#include "knowledge/versioned_cache.h"
#include "store/db.h"
#include "store/source_repo.h"

namespace parley {

// The default budget: a quarter of the machine's physical memory (at least 64 MB).
size_t default_knowledge_memory_mb();

// How indexes came into memory, and what the budget did.
struct KnowledgeFigures {
  CacheFigures cache;
  size_t budget_bytes = 0;
  size_t held_bytes = 0;      // what the budget counts: these indexes and every cache sharing it
  uint64_t from_forms = 0;    // loads read from a persisted form
  uint64_t from_sources = 0;  // loads rebuilt by analysing the sources
  uint64_t forms_written = 0;
};

class KnowledgeIndex final : public Retriever {
 public:
  // `budget`: what the loaded indexes may hold (as AgentIndex::memory_bytes counts them), shared
  // with the embedding vectors (knowledge/vector_index.h); null: every index stays loaded.
  // `clock`: when forms are written (null: the system clock).
  explicit KnowledgeIndex(Database& db, MemoryBudget* budget = nullptr,
                          const Clock* clock = nullptr);

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

  // Stores the agent's index at its current knowledge version as its persisted form, unless the
  // stored form already is of that version (loading the index first if it is not in memory).
  // Errors are logged: a missing form only makes a later load slower.
  void persist(std::string_view agent_id, const KnowledgeSettings& settings);

  // Heap bytes held by every loaded agent's index (approximate).
  size_t memory_bytes() const;
  KnowledgeFigures figures() const;

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
  // Loads the agent's index at `version`: from its form, else from its sources (then stores the
  // form). False when the database could not be read.
  bool load(std::string_view agent_id, const KnowledgeSettings& settings, int64_t version,
            AgentIndex& index) const;
  void save_form(std::string_view agent_id, int64_t version, const std::string& form) const;

  Database& db_;
  SystemClock system_clock_;
  const Clock& clock_;
  VersionedCache<AgentIndex, KnowledgeSettings, SameAnalysis> cache_;
  mutable std::atomic<uint64_t> from_forms_{0};
  mutable std::atomic<uint64_t> from_sources_{0};
  mutable std::atomic<uint64_t> forms_written_{0};
};

IndexedSource indexed_source(const SourceRecord& s);

}  // namespace parley
