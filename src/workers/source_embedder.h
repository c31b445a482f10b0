// The training half of hybrid retrieval (docs/decisions/knowledge_embeddings.md): before the
// trainer marks a text source trained, the source's chunks are embedded by its agent's provider
// (`llm.embeddingModel`, agents of the `openai` engine only) and the vectors stored
// (store/chunk_embedding_repo.h), so nothing is computed again on restart. Chunks whose stored
// vector of the same model was computed from the same text are not sent again. While time is
// left, the agent's other trained sources without a vector of the model (the model changed, or
// an earlier call failed) are embedded too. A provider failure never fails training: it is
// logged (never the key) and leaves the source without vectors, BM25 still answers.
// The vectors are stored before the training is recorded, so the knowledge version the training
// moves on tells every node's vector cache to pick them up.
// Thread-safe: the trainer's workers call it at once for different sources.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"
#include "engine/api_actions.h"
#include "engine/embeddings_client.h"
#include "engine/openai_client.h"
#include "knowledge/vector_index.h"
#include "store/db.h"
#include "store/source_repo.h"

namespace parley {

struct SourceEmbedderOptions {
  size_t batch = 64;                 // inputs per embeddings call
  int64_t call_timeout_ms = 30'000;  // each call, within the training's own deadline
  int64_t backfill_sources = 20;     // other sources looked at per training, at most
};

// What embed() did, for trained() once the training is recorded.
struct EmbeddedSource {
  std::string model;                 // empty: the agent has no embedding model
  std::vector<ChunkVector> vectors;  // the source's, empty when embedding failed
  bool others_changed = false;       // vectors of other sources were stored too
};

class SourceEmbedder {
 public:
  // `guard` checks an agent's own provider (ApiActionCaller::provider_target); null: agents'
  // own providers are refused.
  SourceEmbedder(Database& db, const Clock& clock, LlmDefaults defaults,
                 const ApiActionCaller* guard, VectorIndex& vectors,
                 SourceEmbedderOptions options = {})
      : db_(db),
        clock_(clock),
        defaults_(std::move(defaults)),
        guard_(guard),
        vectors_(vectors),
        options_(options) {}

  // Embeds and stores the claimed source's vectors (and others', see above) until `deadline_ms`.
  EmbeddedSource embed(const SourceRecord& source, int64_t deadline_ms) const;
  // The source is recorded trained at knowledge `version`: the vector cache learns it in place.
  void trained(const SourceRecord& stored, const EmbeddedSource& embedded, int64_t version) const;
  // A source left the agent's knowledge at `version`.
  void removed(std::string_view agent_id, std::string_view source_id, int64_t version) const;

 private:
  // The source's vectors of `model`: stored ones still valid for its text, the rest embedded.
  Result<std::vector<ChunkVector>> vectors_of(const SourceRecord& source,
                                              const EmbeddingsRequest& provider,
                                              int64_t deadline_ms) const;
  Result<void> store(const SourceRecord& source, const std::string& model,
                     const std::vector<ChunkVector>& vectors) const;

  Database& db_;
  const Clock& clock_;
  LlmDefaults defaults_;
  const ApiActionCaller* guard_;
  VectorIndex& vectors_;
  SourceEmbedderOptions options_;
  EmbeddingsClient client_;
};

}  // namespace parley
