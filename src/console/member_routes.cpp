// GET /console/v1/members and DELETE /console/v1/members/{memberId}.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "http/responses.h"
#include "views/member_json.h"

namespace parley {

namespace {
Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto members, list_members(call.services, call.account_id()));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& m : members) write_member_json(w, m);
  w.end_array().end_object();
  return json_response(200, w);
}

Result<Response> remove(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto removed, remove_member_as(call.services, call.who, call.param(0)));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("id").string(removed.id);
  w.key("deleted").boolean(true);
  w.end_object().end_object();
  return json_response(200, w);
}
}  // namespace

void register_console_member_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/members", Role::kViewer, Execution::kPool,
                    list);
  add_console_route(router, app, "DELETE", "/console/v1/members/{memberId}", Role::kAdmin,
                    Execution::kPool, remove,
                    {.rule = {"member.remove", "member", audit_member_snapshot}});
}

}  // namespace parley
