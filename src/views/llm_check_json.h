// JSON of a language-model connection test (engine/llm_check.h), as the console's
// `POST /console/v1/agents/{agentId}/llm-test` and `parley admin agent test-llm` both write it:
// {ok, outcome, message, status, durationMs, baseUrl, model}. Never the key. Stateless.
#pragma once

#include "core/json.h"
#include "engine/llm_check.h"

namespace parley {

void write_llm_check_json(JsonWriter& w, const LlmCheck& check);

}  // namespace parley
