// EmbeddingsClient: one call to an OpenAI-compatible `POST {base}/v1/embeddings`
// (`{"model": M, "input": [texts]}` answered by `{"data": [{"index": i, "embedding": [...]}]}`),
// the vector half of hybrid retrieval (docs/decisions/knowledge_embeddings.md). The call goes
// through the one outbound client (net/http_sender.h), pinned to the provider's checked address
// when the request carries one. The answer is hostile input: its size is capped, its JSON depth
// checked, and it must hold exactly one vector per input, all of one dimension
// (1..kMaxEmbeddingDimensions), of finite float32 numbers. The key travels only in the
// `Authorization: Bearer` header and never appears in an error or a log line.
// Stateless: embed() is safe to call from many threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "net/pinned_curl.h"

namespace parley {

inline constexpr size_t kMaxEmbeddingDimensions = 8192;
// Response bytes allowed per input: a vector of kMaxEmbeddingDimensions numbers written with
// ~30 characters each, and room for the envelope.
inline constexpr size_t kEmbeddingResponseBytesPerInput = 256 * 1024;

struct EmbeddingsRequest {
  std::string base_url;  // e.g. "http://127.0.0.1:8000" (a trailing "/v1" is accepted too)
  std::string model;
  std::string api_key;  // may be empty for local providers
  std::vector<std::string> inputs;
  int64_t timeout_ms = 30000;  // the whole call, connection included
  std::optional<PinnedTarget> pin;
  std::string ca_file;  // the server's provider's private CA (--llm-ca-file), or empty
};

using Embeddings = std::vector<std::vector<float>>;
using EmbeddingsDone = std::function<void(Result<Embeddings>)>;

// The endpoint address for a base URL.
std::string embeddings_url(std::string_view base_url);
// The request body as sent.
std::string embeddings_request_body(const EmbeddingsRequest& request);
// The vectors of a response body, in the order of the inputs (by each item's `index`). An error
// (saying what was wrong, never quoting the body) unless there is one vector per input, each
// index once, every vector of the same dimension within 1..kMaxEmbeddingDimensions and every
// value a finite float32.
Result<Embeddings> parse_embeddings(std::string_view body, size_t inputs);

class EmbeddingsClient {
 public:
  // One vector per input, in order. Errors: 504 timeout when the timeout passes first; 500
  // internal_error with one and the same message for every other failure (no connection, an
  // HTTP error status, a body too large or malformed); the kind and the status go to the log.
  Result<Embeddings> embed(const EmbeddingsRequest& request) const;
  // embed() without waiting: `done` receives its outcome on the outbound loop's thread
  // (net/outbound.h) and must not block.
  void start(const EmbeddingsRequest& request, EmbeddingsDone done) const;
};

}  // namespace parley
