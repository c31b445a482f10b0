#include "knowledge/knowledge_index.h"

#include "core/log.h"

namespace parley {

IndexedSource indexed_source(const SourceRecord& s) {
  IndexedSource out;
  out.id = s.id;
  out.type = s.type;
  out.title = s.title;
  out.url = s.url;
  out.content = s.content.value_or("");
  out.question = s.question.value_or("");
  out.answer = s.answer.value_or("");
  return out;
}

template <typename Fn>
auto KnowledgeIndex::with_current(std::string_view agent_id, const KnowledgeSettings& settings, Fn fn) const {
  auto load = [&](AgentIndex& index, int64_t) {
    auto reader = db_.read();
    auto sources = reader.ok() ? SourceRepo::list_trained(*reader, agent_id)
                               : Result<std::vector<SourceRecord>>(reader.error());
    if (!sources.ok()) {
      log_error("knowledge index rebuild failed",
                {{"agentId", agent_id}, {"error", std::string_view(sources.error().message)}});
      return false;
    }
    index = AgentIndex(settings);
    for (const auto& s : *sources) index.add(indexed_source(s));
    return true;
  };
  return cache_.with_current(agent_id, settings, load, fn);
}

std::vector<RetrievedChunk> KnowledgeIndex::search(std::string_view agent_id, const KnowledgeSettings& settings,
                                                   std::string_view query, size_t k) const {
  return with_current(agent_id, settings, [&](const AgentIndex& index) { return index.search(query, k); });
}

std::vector<QaMatch> KnowledgeIndex::match_qa(std::string_view agent_id, const KnowledgeSettings& settings,
                                              std::string_view query, size_t k) const {
  return with_current(agent_id, settings, [&](const AgentIndex& index) { return index.match_qa(query, k); });
}

KnowledgeAnswer KnowledgeIndex::answer(std::string_view agent_id, const KnowledgeSettings& settings,
                                       std::string_view question, size_t max_sentences) const {
  return with_current(agent_id, settings,
                      [&](const AgentIndex& index) { return index.answer(question, max_sentences); });
}

std::vector<QaMatch> KnowledgeIndex::match_qa(std::string_view agent_id,
                                              const KnowledgeSettings& settings,
                                              const AnalyzedText& query, size_t k) const {
  return with_current(agent_id, settings,
                      [&](const AgentIndex& index) { return index.match_qa(query, k); });
}

KnowledgeAnswer KnowledgeIndex::answer(std::string_view agent_id, const KnowledgeSettings& settings,
                                       const AnalyzedText& question, size_t max_sentences) const {
  return with_current(agent_id, settings, [&](const AgentIndex& index) {
    return index.answer(question, max_sentences);
  });
}

void KnowledgeIndex::source_trained(const SourceRecord& source, int64_t version) {
  cache_.advance(source.agent_id, version, [&](AgentIndex& index, const KnowledgeSettings&) {
    index.add(indexed_source(source));
    return !index.wants_rebuild();  // else rebuilt from the live sources on its next query
  });
}

void KnowledgeIndex::source_removed(std::string_view agent_id, std::string_view source_id, int64_t version) {
  cache_.remove(agent_id, version, [&](AgentIndex& index) {
    index.remove(source_id);
    return !index.wants_rebuild();
  });
}

size_t KnowledgeIndex::memory_bytes() const {
  return cache_.sum([](const AgentIndex& index) { return index.memory_bytes(); });
}

}  // namespace parley
