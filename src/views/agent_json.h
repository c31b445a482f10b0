// The Agent resource as JSON, shared by the fronts. Stateless.
#pragma once

#include "core/json.h"
#include "store/agent_repo.h"

namespace parley {

// The Agent resource of the spec.
void write_agent_json(JsonWriter& w, const AgentRecord& a);

}  // namespace parley
