#include "engine/semantic_search.h"

#include <algorithm>

#include "core/log.h"

namespace parley {

int64_t question_embedding_timeout(int64_t deadline_ms, int64_t now_ms) {
  if (deadline_ms <= 0) return kQuestionEmbeddingTimeoutMs;
  return std::min(kQuestionEmbeddingTimeoutMs, (deadline_ms - now_ms) / 2);
}

std::optional<EmbeddingsRequest> question_embedding_call(const VectorIndex& vectors,
                                                         const ReplyRequest& request,
                                                         const LlmTarget& provider,
                                                         int64_t timeout_ms) {
  const std::string& model = request.settings->llm.embedding_model;
  if (model.empty() || provider.base_url.empty() || request.message.empty()) return std::nullopt;
  // Nothing to rank against: no call to the provider.
  if (vectors.rows(request.agent_id, model) == 0) return std::nullopt;
  if (timeout_ms <= 0) {
    log_warn("question_embedding_skipped", {{"agentId", std::string_view(request.agent_id)},
                                            {"reason", std::string_view("no time left")}});
    return std::nullopt;
  }
  EmbeddingsRequest call;
  call.base_url = provider.base_url;
  call.model = model;
  call.api_key = provider.api_key;
  call.pin = provider.pin;
  call.inputs = {request.message};
  call.timeout_ms = timeout_ms;
  return call;
}

std::vector<RetrievedChunk> chunks_near(const VectorIndex& vectors, const ReplyRequest& request,
                                        const Result<Embeddings>& embedded) {
  if (!embedded.ok() || embedded->size() != 1) {
    log_warn("question_embedding_failed",
             {{"agentId", std::string_view(request.agent_id)},
              {"error", std::string_view(embedded.ok() ? "no vector" : embedded.error().message)},
              {"fallback", "bm25"}});
    return {};
  }
  return vectors.search(request.agent_id, request.settings->llm.embedding_model, embedded->front(),
                        kFusionCandidates);
}

std::vector<RetrievedChunk> nearest_chunks(const EmbeddingsClient& client,
                                           const VectorIndex& vectors, const ReplyRequest& request,
                                           const LlmTarget& provider, int64_t timeout_ms) {
  auto call = question_embedding_call(vectors, request, provider, timeout_ms);
  if (!call) return {};
  return chunks_near(vectors, request, client.embed(*call));
}

}  // namespace parley
