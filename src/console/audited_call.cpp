#include "console/audited_call.h"

#include "core/json.h"
#include "core/log.h"
#include "domain/audit_step.h"
#include "http/responses.h"

namespace parley {

namespace {
// An action without fields of its own says what it was asked: the query (an export's format and
// range), never the body (which may hold a secret or a person's data).
std::optional<std::string> details_of(const Request& req) {
  if (req.query.empty()) return std::nullopt;
  JsonWriter w;
  w.begin_object().key("query").string(req.query).end_object();
  return w.str();
}

std::string param_or_empty(const Request& req, int i) {
  return i >= 0 && i < static_cast<int>(req.params.size()) ? std::string(req.params[i]) : "";
}
}  // namespace

Response run_audited_call(ConsoleContext& app, Request& req, const MemberSession& who,
                          std::string_view token, const ConsoleAudit& audit,
                          const ConsoleHandler& handler) {
  const std::string& account = who.member.account_id;
  AuditEvent event;
  event.actor = {"member", who.member.id, who.member.email, app.console.client_address.of(req)};
  event.action = audit.rule.action;
  event.target_type = audit.rule.target_type;
  AuditTargetRef target{account, "", param_or_empty(req, audit.parent_param)};
  if (audit.target == ConsoleAudit::Target::kParam) target.id = param_or_empty(req, audit.param);
  if (audit.target == ConsoleAudit::Target::kAccount) target.id = account;

  AuditStep step(app.db, app.clock, app.random, std::move(event), audit.rule.snapshot,
                 std::move(target));
  if (auto begun = step.begin(); !begun.ok()) return error_response(begun.error());
  Services services{step.db(), app.clock, app.random};
  ConsoleCall call{req, who, token, app, services};
  auto result = handler(call);
  if (!result.ok()) return error_response(result.error());
  Response response = std::move(result).value();
  if (response.status < 200 || response.status >= 300) return response;
  auto done =
      step.finish(audit.target == ConsoleAudit::Target::kCreated ? audit_created_id(response.body)
                                                                 : std::string(),
                  details_of(req));
  if (!done.ok()) {
    log_error("audit entry not written", {{"action", std::string_view(audit.rule.action)},
                                          {"error", std::string_view(done.error().message)}});
  }
  return response;
}

}  // namespace parley
