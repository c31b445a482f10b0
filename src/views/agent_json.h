// JSON of an agent (the spec's Agent resource) as each reader may see it: the public API, the
// console (with the settings, secrets redacted) and the operator's CLI (with the account id too).
// Stateless.
#pragma once

#include "core/json.h"
#include "store/agent_repo.h"

namespace parley {

enum class AgentAudience {
  kApi,       // the Agent resource
  kConsole,   // the resource, then "settings" and "identitySecret" {set, createdAt}
  kOperator,  // the resource, then "accountId", "settings" and "identitySecret"
};

void write_agent_json(JsonWriter& w, const AgentRecord& a,
                      AgentAudience audience = AgentAudience::kApi);

}  // namespace parley
