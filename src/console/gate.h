// What the console's handlers are given, and the gate chain in front of every /console/v1 route
// except login: member token (401 unauthorized) → role (403 forbidden) → handler. The same
// shape as the public API's chain (api/api_context.h), with a team member in place of an API key.
#pragma once

#include <functional>
#include <string_view>

#include "console/console_context.h"
#include "domain/audit_step.h"
#include "domain/members.h"
#include "http/router.h"
#include "store/services.h"

namespace parley {

struct ConsoleCall {
  Request& req;
  const MemberSession& who;
  std::string_view token;  // as presented; never logged or echoed
  ConsoleContext& app;
  Services services;

  std::string_view param(size_t i) const { return req.params.at(i); }
  const std::string& account_id() const { return who.member.account_id; }
};

using ConsoleHandler = std::function<Result<Response>(ConsoleCall&)>;

// How a route that changes something is recorded in the audit log (domain/audit_step.h,
// docs/decisions/audit.md).
using ConsoleAudit = RouteAudit;

// Registers a console route that needs a team member of at least `min_role`. `body_limit`: the
// largest body the route takes; 0: the server's (RouteTarget::body_limit).
void add_console_route(Router& router, ConsoleContext& app, std::string_view method,
                       std::string_view pattern, Role min_role, Execution execution,
                       ConsoleHandler handler, size_t body_limit = 0);
// The same for a route whose changes the audit log records.
void add_console_route(Router& router, ConsoleContext& app, std::string_view method,
                       std::string_view pattern, Role min_role, Execution execution,
                       ConsoleHandler handler, ConsoleAudit audit, size_t body_limit = 0);

// The bearer token of the request, or the 401 saying why there is none.
Result<std::string_view> console_bearer_token(const Request& req);

}  // namespace parley
