#include "workers/source_embedder.h"

#include <algorithm>

#include "core/log.h"
#include "engine/llm_target.h"
#include "knowledge/chunk_embedding.h"
#include "model/agent_settings.h"
#include "store/agent_repo.h"
#include "store/chunk_embedding_repo.h"

namespace parley {

namespace {
VectorSource vector_source(const SourceRecord& s) {
  return {s.id, s.type, s.title, s.url, s.content.value_or("")};
}

void log_failure(const SourceRecord& source, std::string_view what, const ApiError& error) {
  log_warn("source_embedding_failed", {{"sourceId", std::string_view(source.id)},
                                       {"agentId", std::string_view(source.agent_id)},
                                       {"step", what},
                                       {"error", std::string_view(error.message)}});
}
}  // namespace

Result<std::vector<ChunkVector>> SourceEmbedder::vectors_of(const SourceRecord& source,
                                                            const EmbeddingsRequest& provider,
                                                            int64_t deadline_ms) const {
  std::vector<std::string> inputs = embedding_inputs(source.title, source.content.value_or(""));
  std::vector<ChunkVector> out(inputs.size());
  std::vector<size_t> missing;
  PARLEY_ASSIGN_OR_RETURN(Connection & reader, db_.read());
  PARLEY_ASSIGN_OR_RETURN(auto stored,
                          ChunkEmbeddingRepo::list_source(reader, source.id, provider.model));
  for (size_t i = 0; i < inputs.size(); ++i) {
    out[i] = {source.id, static_cast<uint32_t>(i), embedding_hash(inputs[i]), {}};
    auto it = std::find_if(stored.begin(), stored.end(), [&](const ChunkVector& v) {
      return v.chunk == i && v.text_hash == out[i].text_hash;
    });
    if (it != stored.end()) {
      out[i].values = std::move(it->values);
    } else {
      missing.push_back(i);
    }
  }
  for (size_t first = 0; first < missing.size(); first += options_.batch) {
    size_t last = std::min(missing.size(), first + options_.batch);
    EmbeddingsRequest call = provider;
    for (size_t j = first; j < last; ++j) call.inputs.push_back(std::move(inputs[missing[j]]));
    call.timeout_ms = std::min(options_.call_timeout_ms, deadline_ms - clock_.now_ms());
    PARLEY_ASSIGN_OR_RETURN(Embeddings got, client_.embed(call));
    for (size_t j = first; j < last; ++j) out[missing[j]].values = std::move(got[j - first]);
  }
  // One dimension for the whole source (a provider may not change it between calls).
  for (const auto& v : out) {
    if (v.values.empty() || v.values.size() != out.front().values.size())
      return ApiError::internal("the provider's vectors changed dimension");
  }
  return out;
}

Result<void> SourceEmbedder::store(const SourceRecord& source, const std::string& model,
                                   const std::vector<ChunkVector>& vectors) const {
  const int64_t now = clock_.now_ms();
  return db_.write([&](Connection& c) {
    return ChunkEmbeddingRepo::replace_source(c, source.agent_id, source.id, model, vectors, now);
  });
}

EmbeddedSource SourceEmbedder::embed(const SourceRecord& source, int64_t deadline_ms) const {
  EmbeddedSource done;
  if (source.type == "qa") return done;
  auto reader = db_.read();
  auto agent = reader.ok() ? AgentRepo::find_any(*reader, source.agent_id)
                           : Result<std::optional<AgentRecord>>(reader.error());
  if (!agent.ok() || !*agent) return done;
  AgentSettings settings = parse_agent_settings((*agent)->settings);
  // Vectors only serve the `openai` engine; the built-in engine never calls the network.
  if (settings.llm.embedding_model.empty() || settings.reply.engine != "openai") return done;
  auto target = llm_target(settings.llm, defaults_, guard_);
  if (!target.ok()) {
    log_failure(source, "provider", target.error());
    return done;
  }
  if (target->base_url.empty()) return done;
  done.model = settings.llm.embedding_model;
  EmbeddingsRequest provider;
  provider.base_url = target->base_url;
  provider.model = done.model;
  provider.api_key = target->api_key;
  provider.pin = target->pin;

  auto vectors = vectors_of(source, provider, deadline_ms);
  if (!vectors.ok()) {
    log_failure(source, "embed", vectors.error());
    return done;
  }
  if (auto stored = store(source, done.model, *vectors); !stored.ok()) {
    log_failure(source, "store", stored.error());
    return done;
  }
  done.vectors = std::move(*vectors);
  log_info("source_embedded", {{"sourceId", std::string_view(source.id)},
                               {"chunks", static_cast<int64_t>(done.vectors.size())}});

  // The agent's other sources that lack vectors of this model, while time is left.
  auto others = ChunkEmbeddingRepo::sources_without(*reader, source.agent_id, done.model,
                                                    options_.backfill_sources);
  if (!others.ok()) return done;
  for (const auto& id : *others) {
    if (id == source.id || clock_.now_ms() >= deadline_ms) continue;
    auto other = SourceRepo::find(*reader, source.agent_id, id);
    if (!other.ok() || !*other) continue;
    auto more = vectors_of(**other, provider, deadline_ms);
    if (!more.ok()) {
      log_failure(**other, "backfill", more.error());
      break;  // the provider fails: the next training tries again
    }
    if (store(**other, done.model, *more).ok()) done.others_changed = true;
  }
  return done;
}

void SourceEmbedder::trained(const SourceRecord& stored, const EmbeddedSource& embedded,
                             int64_t version) const {
  if (embedded.others_changed) {
    vectors_.invalidate(stored.agent_id);
    return;
  }
  vectors_.source_trained(stored.agent_id, embedded.model, vector_source(stored), embedded.vectors,
                          version);
}

void SourceEmbedder::removed(std::string_view agent_id, std::string_view source_id,
                             int64_t version) const {
  vectors_.source_removed(agent_id, source_id, version);
}

}  // namespace parley
