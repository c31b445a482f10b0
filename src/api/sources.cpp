// GET and POST /api/v1/agents/{agentId}/sources, DELETE
// /api/v1/agents/{agentId}/sources/{sourceId}.
#include "api/routes.h"
#include "domain/audit_snapshots.h"
#include "views/source_answers.h"

namespace parley {

namespace {
Result<Response> list_sources_handler(ApiCall& call) {
  return sources_listing(call.app.db, call.account_id(), call.param(0));
}

Result<Response> add_source_handler(ApiCall& call) {
  return add_source_from({call.db(), call.app.clock, call.app.random}, &call.app.source_listener,
                         call.account_id(), call.param(0), call.req);
}

Result<Response> delete_source_handler(ApiCall& call) {
  return delete_source_answer({call.db(), call.app.clock, call.app.random},
                              &call.app.source_listener, call.account_id(), call.param(0),
                              call.param(1));
}
}  // namespace

void register_source_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/sources", Scope::kSourcesRead,
                Execution::kPool, list_sources_handler);
  add_api_route(router, app, "POST", "/api/v1/agents/{agentId}/sources", Scope::kSourcesWrite,
                Execution::kPool, add_source_handler,
                {.rule = {"source.create", "source", audit_source_snapshot},
                 .target = RouteAudit::Target::kCreated,
                 .parent_param = 0});
  add_api_route(
      router, app, "DELETE", "/api/v1/agents/{agentId}/sources/{sourceId}", Scope::kSourcesWrite,
      Execution::kPool, delete_source_handler,
      {.rule = {"source.delete", "source", audit_source_snapshot}, .param = 1, .parent_param = 0});
}

}  // namespace parley
