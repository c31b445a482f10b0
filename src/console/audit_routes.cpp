// GET /console/v1/audit: the account's audit log, newest first, for owners and admins (403
// forbidden below), filtered by actor (a member's or key's id), action (exact, or a prefix ending
// in '.': "agent."), targetType, targetId, from and to (a day or an ISO 8601 time), paged by limit
// (1 to 100, default 50) and cursor.
#include "console/console_routes.h"
#include "console/gate.h"
#include "http/responses.h"
#include "views/audit_json.h"

namespace parley {

namespace {
Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto filter, parse_audit_filter(call.req, call.account_id()));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto rows, AuditRepo::list(c, filter));
  return Response::json(200, audit_page_json(std::move(rows), filter.limit, call.account_id()));
}
}  // namespace

void register_console_audit_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/audit", Role::kAdmin, Execution::kPool, list);
}

}  // namespace parley
