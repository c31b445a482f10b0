// A Retriever over one AgentIndex held in memory, with no database behind it: for benchmarks and
// tools that answer from knowledge given to them directly. Every query is answered by the one
// index, whatever agent it names; its analysis is the settings it was made with.
// Not thread-safe while sources are added; queries may share it.
#pragma once

#include "knowledge/agent_index.h"
#include "knowledge/retriever.h"

namespace parley {

class MemoryRetriever final : public Retriever {
 public:
  explicit MemoryRetriever(const KnowledgeSettings& settings = {}) : index_(settings) {}

  void add(const IndexedSource& source) { index_.add(source); }
  const AgentIndex& index() const { return index_; }

  std::vector<RetrievedChunk> search(std::string_view, const KnowledgeSettings&, std::string_view query,
                                     size_t k) const override {
    return index_.search(query, k);
  }
  std::vector<QaMatch> match_qa(std::string_view, const KnowledgeSettings&, std::string_view query,
                                size_t k) const override {
    return index_.match_qa(query, k);
  }
  KnowledgeAnswer answer(std::string_view, const KnowledgeSettings&, std::string_view question,
                         size_t max_sentences) const override {
    return index_.answer(question, max_sentences);
  }
  std::vector<QaMatch> match_qa(std::string_view, const KnowledgeSettings&,
                                const AnalyzedText& query, size_t k) const override {
    return index_.match_qa(query, k);
  }
  KnowledgeAnswer answer(std::string_view, const KnowledgeSettings&, const AnalyzedText& question,
                         size_t max_sentences) const override {
    return index_.answer(question, max_sentences);
  }

 private:
  AgentIndex index_;
};

}  // namespace parley
