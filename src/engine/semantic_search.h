// The vector half of hybrid retrieval for the `openai` engine: the question is embedded by the
// agent's provider (`llm.embeddingModel`) and the agent's chunks are ranked by cosine similarity
// to it (knowledge/vector_index.h); build_prompt fuses that ranking with BM25's
// (knowledge/rank_fusion.h). Whatever fails (no vectors stored, the provider failing or slow),
// the answer is an empty ranking and the prompt gets BM25's chunks alone.
// Stateless; nearest_chunks() is safe from many threads.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/embeddings_client.h"
#include "engine/llm_target.h"
#include "engine/reply_engine.h"
#include "knowledge/vector_index.h"

namespace parley {

// How deep each ranking goes before fusion.
inline constexpr size_t kFusionCandidates = 20;
// The question's embedding gets at most this long, and at most half of what is left of the
// reply's time, so that the completion keeps the rest.
inline constexpr int64_t kQuestionEmbeddingTimeoutMs = 5000;

// How long the question's embedding may take when the reply must be done by `deadline_ms`
// (0: no deadline) and it is `now_ms`.
int64_t question_embedding_timeout(int64_t deadline_ms, int64_t now_ms);

// Up to kFusionCandidates of the agent's chunks closest to the request's message, best first;
// empty when the agent has no `llm.embeddingModel`, no vector of it is stored, or embedding the
// message failed or timed out (logged). `provider` is the agent's (llm_target); its model is
// replaced by the embedding model.
std::vector<RetrievedChunk> nearest_chunks(const EmbeddingsClient& client,
                                           const VectorIndex& vectors, const ReplyRequest& request,
                                           const LlmTarget& provider, int64_t timeout_ms);

// nearest_chunks() in two halves, so that no thread waits on the embedding: the call to make
// (nothing when none is needed), then the ranking from its outcome.
std::optional<EmbeddingsRequest> question_embedding_call(const VectorIndex& vectors,
                                                         const ReplyRequest& request,
                                                         const LlmTarget& provider,
                                                         int64_t timeout_ms);
std::vector<RetrievedChunk> chunks_near(const VectorIndex& vectors, const ReplyRequest& request,
                                        const Result<Embeddings>& embedded);

}  // namespace parley
