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

Response agent_response(const AgentRecord& agent) {
  return data_response(200, [&](JsonWriter& w) { write_agent_json(w, agent); });
}

// Served on the I/O thread from the agent cache when it holds the agent as of now; otherwise the
// database read runs on the blocking pool.
Result<Response> get_agent_handler(ApiCall& call) {
  AgentCache* cache = call.app.agent_cache;
  if (cache != nullptr) {
    if (auto agent = cache->fresh(call.param(0)); agent && agent->record.account_id == call.account_id())
      return agent_response(agent->record);
  }
  return Response::on_pool([&app = call.app, account_id = call.account_id(), agent_id = std::string(call.param(0))] {
    auto agent = account_agent(app, account_id, agent_id);
    return agent.ok() ? agent_response((*agent)->record) : error_response(agent.error());
  });
}
}  // namespace

void register_agent_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents", Scope::kAgentsRead, Execution::kPool, list_agents);
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}", Scope::kAgentsRead, Execution::kInline,
                get_agent_handler);
}

}  // namespace parley
