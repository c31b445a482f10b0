#include "console/gate.h"

#include <memory>
#include <string>

#include "console/audited_call.h"
#include "http/responses.h"

namespace parley {

namespace {
std::string article(Role r) { return r == Role::kAdmin || r == Role::kOwner ? "an " : "a "; }

// `audit` null: a route that changes nothing worth recording.
void add_route(Router& router, ConsoleContext& app, std::string_view method,
               std::string_view pattern, Role min_role, Execution execution, ConsoleHandler handler,
               std::shared_ptr<const ConsoleAudit> audit, size_t body_limit) {
  router.add(method, pattern,
             {[&app, min_role, handler = std::move(handler), audit](Request& req) -> Response {
                auto token = console_bearer_token(req);
                if (!token.ok()) return error_response(token.error());
                Services services{app.db, app.clock, app.random};
                auto who = authenticate_member_token(services, *token);
                if (!who.ok()) return error_response(who.error());
                if (!role_at_least(who->role, min_role)) {
                  return error_response(
                      {ErrorCode::kForbidden, "This needs the " + std::string(role_name(min_role)) +
                                                  " role or higher; you are " + article(who->role) +
                                                  std::string(role_name(who->role)) + "."});
                }
                if (audit) return run_audited_call(app, req, *who, *token, *audit, handler);
                ConsoleCall call{req, *who, *token, app, services};
                auto result = handler(call);
                return result.ok() ? std::move(result).value() : error_response(result.error());
              },
              execution, body_limit});
}
}  // namespace

Result<std::string_view> console_bearer_token(const Request& req) {
  return bearer_credentials(req, "console token");
}

void add_console_route(Router& router, ConsoleContext& app, std::string_view method,
                       std::string_view pattern, Role min_role, Execution execution,
                       ConsoleHandler handler, size_t body_limit) {
  add_route(router, app, method, pattern, min_role, execution, std::move(handler), nullptr,
            body_limit);
}

void add_console_route(Router& router, ConsoleContext& app, std::string_view method,
                       std::string_view pattern, Role min_role, Execution execution,
                       ConsoleHandler handler, ConsoleAudit audit, size_t body_limit) {
  add_route(router, app, method, pattern, min_role, execution, std::move(handler),
            std::make_shared<const ConsoleAudit>(std::move(audit)), body_limit);
}

}  // namespace parley
