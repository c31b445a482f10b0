// GET /console/v1/agents/{agentId}/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD: an agent's figures per
// day in the account's time zone, and their totals (domain/analytics.h). Any team member may read.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/analytics.h"
#include "http/responses.h"
#include "views/analytics_json.h"

namespace parley {

namespace {
std::optional<std::string> query_value(const Request& req, std::string_view name) {
  bool found = false;
  std::string value = req.query_param(name, &found);
  if (!found) return std::nullopt;
  return value;
}

Result<Response> analytics(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(
      auto figures, agent_analytics(call.services, call.account_id(), call.param(0),
                                    query_value(call.req, "from"), query_value(call.req, "to")));
  return data_response(200, [&](JsonWriter& w) { write_analytics_json(w, figures); });
}
}  // namespace

void register_console_analytics_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/analytics", Role::kViewer,
                    Execution::kPool, analytics);
}

}  // namespace parley
