#include "api/audited_call.h"

#include "core/log.h"
#include "http/responses.h"
#include "store/key_repo.h"

namespace parley {

namespace {
std::string param_or_empty(const Request& req, int i) {
  return i >= 0 && i < static_cast<int>(req.params.size()) ? std::string(req.params[i]) : "";
}

// The key's name as the account named it (never the key).
Result<std::string> key_name(Database& db, const std::string& key_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  PARLEY_ASSIGN_OR_RETURN(auto k, KeyRepo::find(c, key_id));
  return k ? k->name : std::string("API key");
}
}  // namespace

Response run_audited_api_call(ApiContext& app, Request& req, const KeyEntry& key,
                              const RouteAudit& audit, const ApiHandler& handler) {
  auto name = key_name(app.db, key.key_id);
  if (!name.ok()) return error_response(name.error());
  AuditEvent event;
  event.actor = {"key", key.key_id, std::move(*name),
                 app.client_address != nullptr ? app.client_address->of(req) : req.remote_address};
  event.action = audit.rule.action;
  event.target_type = audit.rule.target_type;
  AuditTargetRef target{key.account_id, "", param_or_empty(req, audit.parent_param)};
  if (audit.target == RouteAudit::Target::kParam) target.id = param_or_empty(req, audit.param);
  if (audit.target == RouteAudit::Target::kAccount) target.id = key.account_id;

  AuditStep step(app.db, app.clock, app.random, std::move(event), audit.rule.snapshot,
                 std::move(target));
  if (auto begun = step.begin(); !begun.ok()) return error_response(begun.error());
  ApiCall call{req, key, app, &step.db()};
  auto result = handler(call);
  if (!result.ok()) return error_response(result.error());
  Response response = std::move(result).value();
  if (response.status < 200 || response.status >= 300) return response;
  auto done = step.finish(
      audit.target == RouteAudit::Target::kCreated ? audit_created_id(response.body) : "",
      std::nullopt);
  if (!done.ok()) {
    log_error("audit entry not written", {{"action", std::string_view(audit.rule.action)},
                                          {"error", std::string_view(done.error().message)}});
  }
  return response;
}

}  // namespace parley
