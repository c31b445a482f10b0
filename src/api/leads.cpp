// GET /api/v1/agents/{agentId}/leads.
#include "domain/leads.h"

#include "api/routes.h"
#include "domain/agents.h"
#include "http/responses.h"
#include "store/lead_queries.h"
#include "views/lead_json.h"
#include "views/pagination.h"

namespace parley {

namespace {
Result<Response> list_leads(ApiCall& call) {
  std::string_view agent_id = call.param(0);
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(call.req, kLeadList, agent_id));
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, get_agent(c, call.account_id(), agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, LeadQueries::list(c, agent_id, q));
  FormLabels labels(parse_agent_settings(agent.settings));
  return Response::json(
      200, page_json<LeadRecord>(
               page, kLeadList, agent_id,
               [&](JsonWriter& w, const LeadRecord& l) { write_lead_json(w, l, labels); },
               [](const LeadRecord& l) {
                 return KeysetPosition{l.collected_at, l.id};
               }));
}
}  // namespace

void register_lead_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/leads", Scope::kLeadsRead,
                Execution::kPool, list_leads);
}

}  // namespace parley
