// GET /console/v1/account, PUT /console/v1/account {plan, retentionDays?} (owners only), and PATCH
// /console/v1/account {plan?, timeZone?, retentionDays?} (the plan and the retention: owners; the
// time zone: admins and owners).
#include "console/console_json.h"
#include "console/console_routes.h"
#include "console/gate.h"
#include "core/time_format.h"
#include "core/time_zone.h"
#include "domain/accounts.h"
#include "domain/analytics.h"
#include "domain/audit_snapshots.h"
#include "domain/retention.h"
#include "domain/usage.h"
#include "http/responses.h"
#include "store/conversation_queries.h"

#include <cstdlib>

namespace parley {

namespace {
Response account_response(const Account& a) {
  return data_response(200, [&](JsonWriter& w) { write_console_account_json(w, a); });
}

Result<Response> get(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto account, get_account(call.services, call.account_id()));
  return account_response(account);
}

// Plan messages this month, and visitors' and API users' messages per UTC day over the last `days`
// (1 to 90, default 30) ending today, each day listed, oldest first.
Result<Response> usage(ConsoleCall& call) {
  int64_t days = 30;
  bool found = false;
  std::string given = call.req.query_param("days", &found);
  if (found) {
    char* end = nullptr;
    long long n = std::strtoll(given.c_str(), &end, 10);
    if (given.empty() || *end != '\0' || n < 1 || n > 90)
      return ApiError::invalid("'days' must be a whole number from 1 to 90.");
    days = n;
  }
  constexpr int64_t kDay = 86'400'000;
  const int64_t now = call.services.clock.now_ms();
  const int64_t today = now / kDay;
  const int64_t first = today - days + 1;
  PARLEY_ASSIGN_OR_RETURN(auto account, get_account(call.services, call.account_id()));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.services.db.read());
  std::string month = month_period(now);
  PARLEY_ASSIGN_OR_RETURN(int64_t used, usage_count(c, account.id, month));
  PARLEY_ASSIGN_OR_RETURN(auto counted,
                          ConversationQueries::user_messages_per_day(c, account.id, first * kDay));
  return data_response(200, [&](JsonWriter& w) {
    w.begin_object();
    w.key("period").string(month.substr(2));
    w.key("messagesUsed").integer(used);
    w.key("messagesPerMonth")
        .integer(effective_limits(account.plan, account.overrides).messages_per_month);
    w.key("days").begin_array();
    size_t at = 0;
    for (int64_t day = first; day <= today; ++day) {
      while (at < counted.size() && counted[at].first < day) ++at;
      int64_t n = at < counted.size() && counted[at].first == day ? counted[at].second : 0;
      w.begin_object();
      w.key("date").string(format_timestamp(day * kDay).substr(0, 10));
      w.key("messages").integer(n);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  });
}

// Keys stay listed on Free; the public API refuses them with plan_required until an upgrade.
// set_account_plan bumps the auth epoch, so the key cache sees the new plan on its next request.
Result<void> change_plan(ConsoleCall& call, const std::string& plan) {
  if (!call.app.console.options.self_service_plans) {
    return ApiError{
        ErrorCode::kForbidden,
        "Plan changes are made by this server's operator; ask them to change the plan."};
  }
  PARLEY_TRY(set_account_plan(call.services, call.account_id(), plan));
  return {};
}

// `retentionDays`: a whole number of days (domain/retention.h), or null for for ever.
Result<std::optional<int64_t>> retention_field(const FieldReader& f) {
  if (f.is_null("retentionDays")) return std::optional<int64_t>();
  const rapidjson::Value* v = f.get("retentionDays");
  if (v == nullptr || !v->IsInt64())
    return ApiError::invalid(
        "'retentionDays' must be a whole number of days, or null to keep conversations for ever.");
  return std::optional<int64_t>(v->GetInt64());
}

// The owner's fields: an admin who gives one is refused (403) before anything changes.
Result<void> owner_only(const ConsoleCall& call, std::string_view field) {
  if (call.who.role == Role::kOwner) return {};
  return ApiError{ErrorCode::kForbidden,
                  "Changing '" + std::string(field) + "' needs the owner role; you are " +
                      std::string(call.who.role == Role::kAdmin ? "an " : "a ") +
                      std::string(role_name(call.who.role)) + "."};
}

// PATCH {plan?, timeZone?, retentionDays?}: each given field changes; at least one. The plan and
// the retention are the owner's, the time zone an admin's too. PUT: `plan` is required. Each field
// is checked before anything is written, so a bad one changes nothing.
Result<Response> change_account(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  if (call.req.method == "PUT" && !f.has("plan")) return ApiError::invalid("'plan' is required.");
  if (!f.has("plan") && !f.has("retentionDays") && !f.has("timeZone"))
    return ApiError::invalid("Give 'plan', 'timeZone' or 'retentionDays'.");
  if (f.has("plan")) PARLEY_TRY(owner_only(call, "plan"));
  if (f.has("retentionDays")) PARLEY_TRY(owner_only(call, "retentionDays"));
  std::optional<std::string> time_zone;
  if (f.has("timeZone")) {
    auto given = f.optional_string("timeZone");
    if (!given.ok() || !*given || !is_time_zone(**given)) {
      return ApiError::invalid(
          "'timeZone' must be a time zone of the IANA database, such as Europe/Paris or UTC.");
    }
    time_zone = **given;
  }
  std::optional<std::optional<int64_t>> retention;
  if (f.has("retentionDays")) {
    PARLEY_ASSIGN_OR_RETURN(retention, retention_field(f));
  }
  std::optional<std::string> plan;
  if (f.has("plan")) {
    PARLEY_ASSIGN_OR_RETURN(plan, f.required_string("plan"));
  }
  if (retention) PARLEY_TRY(check_retention_days(*retention));  // before the plan changes
  if (plan) PARLEY_TRY(change_plan(call, *plan));
  if (retention) PARLEY_TRY(set_account_retention(call.services, call.account_id(), *retention));
  if (time_zone) PARLEY_TRY(set_account_time_zone(call.services, call.account_id(), *time_zone));
  PARLEY_ASSIGN_OR_RETURN(auto account, get_account(call.services, call.account_id()));
  return account_response(account);
}
}  // namespace

void register_console_account_routes(Router& router, ConsoleContext& app) {
  const ConsoleAudit account_audit{.rule = {"account.update", "account", audit_account_snapshot},
                                   .target = ConsoleAudit::Target::kAccount};
  add_console_route(router, app, "GET", "/console/v1/account", Role::kViewer, Execution::kPool,
                    get);
  add_console_route(router, app, "GET", "/console/v1/account/usage", Role::kViewer,
                    Execution::kPool, usage);
  add_console_route(router, app, "PUT", "/console/v1/account", Role::kOwner, Execution::kPool,
                    change_account, account_audit);
  add_console_route(router, app, "PATCH", "/console/v1/account", Role::kAdmin, Execution::kPool,
                    change_account, account_audit);
}

}  // namespace parley
