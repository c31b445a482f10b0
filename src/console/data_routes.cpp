// An agent's conversations (an inbox: visitor, preview and badges, with search by a word in them
// and a filter per badge), leads and contacts in the console: the same pages as the public API's
// lists (views/list_answers.h), for any team member.
#include "console/console_routes.h"
#include "console/gate.h"
#include "views/list_answers.h"

namespace parley {

namespace {
Result<Response> conversations(ConsoleCall& call) {
  return inbox_page(call.app.db, call.account_id(), call.param(0), call.req);
}
Result<Response> leads(ConsoleCall& call) {
  return leads_page(call.app.db, call.account_id(), call.param(0), call.req);
}
Result<Response> contacts(ConsoleCall& call) {
  return contacts_page(call.app.db, call.account_id(), call.param(0), call.req);
}
}  // namespace

void register_console_data_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/conversations", Role::kViewer,
                    Execution::kPool, conversations);
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/leads", Role::kViewer,
                    Execution::kPool, leads);
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/contacts", Role::kViewer,
                    Execution::kPool, contacts);
}

}  // namespace parley
