// An in-test Retriever: the real AgentIndex (knowledge/agent_index.h) over the Q&A pairs and texts
// a test sets, rebuilt on each query so a test may change them between questions. Only the
// stand-in for the database is fake.
#pragma once

#include <string>
#include <vector>

#include "knowledge/agent_index.h"
#include "knowledge/retriever.h"

namespace parley {

class FakeRetriever final : public Retriever {
 public:
  std::vector<QaMatch> qa;             // source_id, question, answer
  std::vector<RetrievedChunk> chunks;  // source_id, source_type, title, url, text (the content)

  std::vector<RetrievedChunk> search(std::string_view, const KnowledgeSettings& settings, std::string_view query,
                                     size_t k) const override {
    return index(settings).search(query, k);
  }

  std::vector<QaMatch> match_qa(std::string_view, const KnowledgeSettings& settings, std::string_view query,
                                size_t k) const override {
    return index(settings).match_qa(query, k);
  }

  KnowledgeAnswer answer(std::string_view, const KnowledgeSettings& settings, std::string_view question,
                         size_t max_sentences) const override {
    return index(settings).answer(question, max_sentences);
  }

 private:
  AgentIndex index(const KnowledgeSettings& settings) const {
    AgentIndex index(settings);
    for (const auto& q : qa) index.add({q.source_id, "qa", std::nullopt, std::nullopt, "", q.question, q.answer});
    for (const auto& c : chunks) index.add({c.source_id, c.source_type, c.title, c.url, c.text, "", ""});
    return index;
  }
};

}  // namespace parley
