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

std::shared_ptr<KnowledgeIndex::Entry> KnowledgeIndex::entry(std::string_view agent_id, bool create) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(std::string(agent_id));
  if (it != entries_.end()) return it->second;
  if (!create) return nullptr;
  auto e = std::make_shared<Entry>();
  entries_.emplace(std::string(agent_id), e);
  return e;
}

namespace {
bool same_analysis(const KnowledgeSettings& a, const KnowledgeSettings& b) {
  return a.language == b.language && a.synonyms == b.synonyms;
}
}  // namespace

void KnowledgeIndex::rebuild(std::string_view agent_id, Entry& e, int64_t version,
                             const KnowledgeSettings& settings) const {
  auto reader = db_.read();
  auto sources = reader.ok() ? SourceRepo::list_trained(*reader, agent_id)
                             : Result<std::vector<SourceRecord>>(reader.error());
  if (!sources.ok()) {
    log_error("knowledge index rebuild failed", {{"agentId", agent_id}, {"error", std::string_view(sources.error().message)}});
    return;
  }
  e.index = AgentIndex(settings);
  e.settings = settings;
  for (const auto& s : *sources) e.index.add(indexed_source(s));
  e.version = version;
}

template <typename Fn>
auto KnowledgeIndex::with_current(std::string_view agent_id, const KnowledgeSettings& settings, Fn fn) const {
  auto reader = db_.read();
  auto version = reader.ok() ? SourceRepo::version(*reader, agent_id) : Result<int64_t>(reader.error());
  auto e = entry(agent_id, true);
  if (version.ok()) {
    std::shared_lock read(e->mu);
    if (e->version == *version && same_analysis(e->settings, settings)) return fn(e->index);
  }
  {
    std::unique_lock write(e->mu);
    if (version.ok() && (e->version != *version || !same_analysis(e->settings, settings)))
      rebuild(agent_id, *e, *version, settings);
  }
  std::shared_lock read(e->mu);
  return fn(e->index);
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

void KnowledgeIndex::source_trained(const SourceRecord& source, int64_t version) {
  auto e = entry(source.agent_id, false);
  if (!e) return;
  std::unique_lock lock(e->mu);
  if (e->version == version - 1) {
    e->index.add(indexed_source(source));
    e->version = version;
    if (e->index.wants_rebuild()) e->version = -1;  // rebuilt from the live sources on its next query
  }
}

void KnowledgeIndex::source_removed(std::string_view agent_id, std::string_view source_id, int64_t version) {
  auto e = entry(agent_id, false);
  if (!e) return;
  std::unique_lock lock(e->mu);
  // Removed at once even when the index is behind; a stale index is rebuilt on its next query.
  e->index.remove(source_id);
  if (e->version == version - 1) e->version = version;
  if (e->index.wants_rebuild()) e->version = -1;  // rebuilt from the live sources on its next query
}

size_t KnowledgeIndex::memory_bytes() const {
  std::lock_guard lock(mu_);
  size_t bytes = 0;
  for (const auto& [id, e] : entries_) {
    std::shared_lock read(e->mu);
    bytes += e->index.memory_bytes();
  }
  return bytes;
}

}  // namespace parley
