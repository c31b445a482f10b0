// An agent's knowledge in the console: the same listing, additions and deletions as the public
// API's sources endpoints (views/source_answers.h), for a team member. Viewers read; editors change.
#include "console/console_routes.h"
#include "console/gate.h"
#include "views/source_answers.h"

namespace parley {

namespace {
Result<Response> list(ConsoleCall& call) { return sources_listing(call.app.db, call.account_id(), call.param(0)); }

Result<Response> add(ConsoleCall& call) {
  return add_source_from(call.services, call.app.source_listener, call.account_id(), call.param(0), call.req);
}

Result<Response> remove(ConsoleCall& call) {
  return delete_source_answer(call.services, call.app.source_listener, call.account_id(), call.param(0),
                              call.param(1));
}
}  // namespace

void register_console_knowledge_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/sources", Role::kViewer, Execution::kPool, list);
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/sources", Role::kEditor, Execution::kPool, add);
  add_console_route(router, app, "DELETE", "/console/v1/agents/{agentId}/sources/{sourceId}", Role::kEditor,
                    Execution::kPool, remove);
}

}  // namespace parley
