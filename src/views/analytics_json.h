// JSON of an agent's figures over a period (domain/analytics.h), written alike by the console
// (`GET /console/v1/agents/{agentId}/analytics`) and `parley admin analytics`.
#pragma once

#include "core/json.h"
#include "domain/analytics.h"

namespace parley {

// {agentId, timeZone, from, to, days: [{date, ...figures}], totals: {...figures}}.
void write_analytics_json(JsonWriter& w, const AgentAnalytics& a);

}  // namespace parley
