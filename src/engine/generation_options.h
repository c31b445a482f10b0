// Sampling options a caller may give an LLM engine for one reply (the OpenAI-compatible front
// passes its request's temperature, top_p and max_tokens); each is sent to the provider only when
// set. The built-in retrieval engine ignores them. A plain value; no threads involved.
#pragma once

#include <cstdint>
#include <optional>

namespace parley {

struct GenerationOptions {
  std::optional<double> temperature;  // 0 to 2
  std::optional<double> top_p;        // 0 to 1
  std::optional<int64_t> max_tokens;  // at least 1
};

}  // namespace parley
