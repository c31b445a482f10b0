// Where an agent's calls to its OpenAI-compatible provider go (chat completions and embeddings
// alike): the agent's `llm` settings, each field falling back to the server's default. A
// provider a team member points the agent at (an `llm.baseUrl` other than the server's) passes
// the address guard once and every call made with the target is pinned to the address checked
// then; it never receives the server's own key, which goes only to the server's provider.
// Stateless; llm_target() is thread-safe when the guard's Resolver is.
#pragma once

#include <optional>
#include <string>

#include "core/result.h"
#include "engine/api_actions.h"
#include "engine/openai_client.h"
#include "model/agent_settings.h"
#include "net/pinned_curl.h"

namespace parley {

struct LlmTarget {
  std::string base_url;             // empty: neither the agent nor the server names a provider
  std::string model;                // the chat model (`llm.model`, else the server's)
  std::string api_key;              // may be empty
  std::optional<PinnedTarget> pin;  // set for the agent's own provider
};

// 500 internal_error when the agent's own provider is refused by `guard` (or there is no guard).
Result<LlmTarget> llm_target(const LlmSettings& llm, const LlmDefaults& defaults,
                             const ApiActionCaller* guard);

}  // namespace parley
