// GET /api/v1/agents and GET /api/v1/agents/{agentId}.
#include "api/routes.h"
#include "http/responses.h"
#include "domain/agent_cache.h"
#include "domain/agents.h"
#include "views/agent_json.h"

namespace parley {

namespace {
Result<Response> list_agents(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agents, AgentRepo::list(c, call.account_id()));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& a : agents) write_agent_json(w, a);
  w.end_array().end_object();
  return json_response(200, w);
}

Result<Response> get_agent_handler(ApiCall& call) {
  JsonWriter w;
  w.begin_object().key("data");
  if (call.app.agent_cache != nullptr) {
    PARLEY_ASSIGN_OR_RETURN(auto agent, call.app.agent_cache->get(call.account_id(), call.param(0)));
    write_agent_json(w, agent->record);
  } else {
    PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
    PARLEY_ASSIGN_OR_RETURN(auto agent, get_agent(c, call.account_id(), call.param(0)));
    write_agent_json(w, agent);
  }
  w.end_object();
  return json_response(200, w);
}
}  // namespace

void register_agent_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents", Scope::kAgentsRead, Execution::kPool, list_agents);
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}", Scope::kAgentsRead, Execution::kPool,
                get_agent_handler);
}

}  // namespace parley
