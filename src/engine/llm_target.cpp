#include "engine/llm_target.h"

namespace parley {

Result<LlmTarget> llm_target(const LlmSettings& llm, const LlmDefaults& defaults,
                             const ApiActionCaller* guard) {
  LlmTarget t;
  t.base_url = llm.base_url;
  t.model = llm.model;
  t.api_key = llm.api_key;
  const bool own_provider = !t.base_url.empty() && t.base_url != defaults.base_url;
  if (own_provider) {
    if (guard == nullptr) return ApiError::internal("The agent's llm.baseUrl is refused.");
    PARLEY_ASSIGN_OR_RETURN(t.pin, guard->provider_target(t.base_url));
  }
  if (t.base_url.empty()) t.base_url = defaults.base_url;
  if (t.model.empty()) t.model = defaults.model;
  if (t.api_key.empty() && !own_provider) t.api_key = defaults.api_key;
  return t;
}

}  // namespace parley
