#include "knowledge/knowledge_index.h"

#include <unistd.h>

#include "core/log.h"
#include "knowledge/index_form.h"
#include "store/knowledge_form_repo.h"

namespace parley {

namespace {
constexpr size_t kMinDefaultMb = 64;
}  // namespace

size_t default_knowledge_memory_mb() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 1024;
  size_t mb = static_cast<size_t>(pages) / (1u << 20) * static_cast<size_t>(page) / 4;
  return std::max(mb, kMinDefaultMb);
}

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

KnowledgeIndex::KnowledgeIndex(Database& db, MemoryBudget* budget, const Clock* clock)
    : db_(db),
      clock_(clock != nullptr ? *clock : system_clock_),
      cache_(db, budget, [](const AgentIndex& index) { return index.memory_bytes(); }) {}

bool KnowledgeIndex::load(std::string_view agent_id, const KnowledgeSettings& settings,
                          int64_t version, AgentIndex& index) const {
  auto reader = db_.read();
  if (!reader.ok()) {
    log_error("knowledge index load failed",
              {{"agentId", agent_id}, {"error", std::string_view(reader.error().message)}});
    return false;
  }
  auto stored = KnowledgeFormRepo::find(*reader, agent_id, version);
  if (stored.ok() && *stored && (*stored)->format == kIndexFormVersion) {
    if (auto loaded = index_from_form((*stored)->form, settings)) {
      index = std::move(*loaded);
      ++from_forms_;
      return true;
    }
    log_warn(
        "persisted knowledge index not usable (corrupt, or of another analysis), rebuilt from the "
        "sources",
        {{"agentId", agent_id}});
  }
  auto sources = SourceRepo::list_trained(*reader, agent_id);
  if (!sources.ok()) {
    log_error("knowledge index rebuild failed",
              {{"agentId", agent_id}, {"error", std::string_view(sources.error().message)}});
    return false;
  }
  index = AgentIndex(settings);
  for (const auto& s : *sources) index.add(indexed_source(s));
  index.shrink_to_fit();
  ++from_sources_;
  // The next load (here after an eviction, or on another node) reads it back in one pass.
  save_form(agent_id, version, index_form(index));
  return true;
}

void KnowledgeIndex::save_form(std::string_view agent_id, int64_t version,
                               const std::string& form) const {
  auto saved = db_.write([&](Connection& c) {
    return KnowledgeFormRepo::save(c, agent_id, version, kIndexFormVersion, form, clock_.now_ms());
  });
  if (!saved.ok()) {
    log_warn("storing a knowledge index form failed",
             {{"agentId", agent_id}, {"error", std::string_view(saved.error().message)}});
    return;
  }
  ++forms_written_;
}

template <typename Fn>
auto KnowledgeIndex::with_current(std::string_view agent_id, const KnowledgeSettings& settings,
                                  Fn fn) const {
  auto load_index = [&](AgentIndex& index, int64_t version) {
    return load(agent_id, settings, version, index);
  };
  return cache_.with_current(agent_id, settings, load_index, fn);
}

std::vector<RetrievedChunk> KnowledgeIndex::search(std::string_view agent_id,
                                                   const KnowledgeSettings& settings,
                                                   std::string_view query, size_t k) const {
  return with_current(agent_id, settings,
                      [&](const AgentIndex& index) { return index.search(query, k); });
}

std::vector<QaMatch> KnowledgeIndex::match_qa(std::string_view agent_id,
                                              const KnowledgeSettings& settings,
                                              std::string_view query, size_t k) const {
  return with_current(agent_id, settings,
                      [&](const AgentIndex& index) { return index.match_qa(query, k); });
}

KnowledgeAnswer KnowledgeIndex::answer(std::string_view agent_id, const KnowledgeSettings& settings,
                                       std::string_view question, size_t max_sentences) const {
  return with_current(agent_id, settings, [&](const AgentIndex& index) {
    return index.answer(question, max_sentences);
  });
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

void KnowledgeIndex::source_removed(std::string_view agent_id, std::string_view source_id,
                                    int64_t version) {
  cache_.remove(agent_id, version, [&](AgentIndex& index) {
    index.remove(source_id);
    return !index.wants_rebuild();
  });
}

void KnowledgeIndex::persist(std::string_view agent_id, const KnowledgeSettings& settings) {
  // Loads the index (which stores its form when it had to be rebuilt) or finds it current.
  with_current(agent_id, settings, [](const AgentIndex&) { return 0; });
  // Training is over for now: the arrays its additions grew give their spare capacity back.
  cache_.modify(agent_id, [](AgentIndex& index) { index.shrink_to_fit(); });
  int64_t version = -1;
  cache_.peek(agent_id, settings, [&](const AgentIndex&, int64_t v) { version = v; });
  if (version < 0) return;
  {
    auto reader = db_.read();
    if (!reader.ok()) return;
    auto stored = KnowledgeFormRepo::stored_version(*reader, agent_id);
    if (stored.ok() && *stored && **stored >= version) return;
  }
  std::string form;
  cache_.peek(agent_id, settings, [&](const AgentIndex& index, int64_t v) {
    version = v;
    form = index_form(index);
  });
  if (version >= 0 && !form.empty()) save_form(agent_id, version, form);
}

size_t KnowledgeIndex::memory_bytes() const { return cache_.measure_all(); }

KnowledgeFigures KnowledgeIndex::figures() const {
  return {cache_.figures(),   cache_.budget(),      cache_.budget_held(),
          from_forms_.load(), from_sources_.load(), forms_written_.load()};
}

}  // namespace parley
