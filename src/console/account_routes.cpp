// GET /console/v1/account, and PUT or PATCH /console/v1/account {plan} (owners only).
#include "http/responses.h"
#include "console/console_json.h"
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/accounts.h"

namespace parley {

namespace {
Response account_response(const Account& a) {
  return data_response(200, [&](JsonWriter& w) { write_console_account_json(w, a); });
}

Result<Response> get(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto account, get_account(call.services, call.account_id()));
  return account_response(account);
}

// Keys stay listed on Free; the public API refuses them with plan_required until an upgrade.
// set_account_plan bumps the auth epoch, so the key cache sees the new plan on its next request.
Result<Response> change_plan(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  PARLEY_ASSIGN_OR_RETURN(std::string plan, f.required_string("plan"));
  PARLEY_ASSIGN_OR_RETURN(auto account, set_account_plan(call.services, call.account_id(), plan));
  return account_response(account);
}
}  // namespace

void register_console_account_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/account", Role::kViewer, Execution::kPool, get);
  add_console_route(router, app, "PUT", "/console/v1/account", Role::kOwner, Execution::kPool, change_plan);
  add_console_route(router, app, "PATCH", "/console/v1/account", Role::kOwner, Execution::kPool, change_plan);
}

}  // namespace parley
