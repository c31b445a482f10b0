// GET /api/v1/agents/{agentId}/leads.
#include "api/routes.h"
#include "views/list_answers.h"

namespace parley {

namespace {
Result<Response> list_leads(ApiCall& call) {
  return leads_page(call.app.db, call.account_id(), call.param(0), call.req);
}
}  // namespace

void register_lead_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/leads", Scope::kLeadsRead,
                Execution::kPool, list_leads);
}

}  // namespace parley
