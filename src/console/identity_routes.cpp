// POST /console/v1/agents/{agentId}/identity-secret: makes the agent's widget identity secret, or
// replaces it (every signature made with the old one then fails). The secret is in this answer
// only (Cache-Control: no-store); the agent's JSON says only whether one is set. Admins and
// owners, like API keys and webhook secrets. domain/widget_identity.h holds the rules.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "domain/widget_identity.h"
#include "http/responses.h"

namespace parley {

namespace {
Result<Response> make_secret(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(
      auto made, make_identity_secret(call.services, call.app.secret_box, call.account_id(),
                                      call.param(0), IdentitySecretMode::kCreateOrRotate));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("agentId").string(made.agent_id);
  w.key("secret").string(made.secret);
  w.key("createdAt").timestamp(made.created_at);
  w.key("rotated").boolean(made.rotated);
  w.end_object().end_object();
  Response r = json_response(made.rotated ? 200 : 201, w);
  r.header("Cache-Control", "no-store");
  return r;
}
}  // namespace

void register_console_identity_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/identity-secret",
                    Role::kAdmin, Execution::kPool, make_secret,
                    {.rule = {"agent.identity_secret", "agent", audit_agent_snapshot}});
}

}  // namespace parley
