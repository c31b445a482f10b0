#include "domain/accounts.h"

#include "core/json.h"
#include "core/random.h"

namespace parley {

namespace {
Result<Plan> plan_from(std::string_view plan) {
  auto p = parse_plan(plan);
  if (!p) return ApiError::invalid("'plan' must be one of free, starter, pro, enterprise.");
  return *p;
}
}  // namespace

Result<Account> create_account(Services& s, std::string_view name, std::string_view plan) {
  if (name.empty() || utf8_length(name) > 200) return ApiError::invalid("'name' must be 1 to 200 characters.");
  PARLEY_ASSIGN_OR_RETURN(Plan p, plan_from(plan));
  Account a;
  a.id = new_id(s.random, "acc_");
  a.name = std::string(name);
  a.plan = p;
  a.created_at = a.updated_at = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) { return AccountRepo::insert(c, a); }));
  return a;
}

Result<Account> get_account(Services& s, std::string_view account_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto a, AccountRepo::find(c, account_id));
  if (!a) return ApiError::not_found("No account " + std::string(account_id) + ".");
  return std::move(*a);
}

Result<Account> set_account_plan(Services& s, std::string_view account_id, std::string_view plan) {
  PARLEY_ASSIGN_OR_RETURN(Plan p, plan_from(plan));
  bool found = false;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(found, AccountRepo::set_plan(c, account_id, p, s.clock.now_ms()));
    return {};
  }));
  if (!found) return ApiError::not_found("No account " + std::string(account_id) + ".");
  return get_account(s, account_id);
}

Result<Account> set_account_limits(Services& s, std::string_view account_id, std::string_view limits_json) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, parse_json_object(limits_json));
  for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) {
    std::string_view k(it->name.GetString(), it->name.GetStringLength());
    if (k != "messagesPerMonth" && k != "trainingCharacters" && k != "contactsPerAgent" &&
        k != "crawlPages")
      return ApiError::invalid("Unknown limit '" + std::string(k) +
                               "'; use messagesPerMonth, trainingCharacters, contactsPerAgent or"
                               " crawlPages.");
    if (!it->value.IsInt64() || it->value.GetInt64() < 0)
      return ApiError::invalid("Limit '" + std::string(k) + "' must be a non-negative integer.");
  }
  std::string stored = doc.MemberCount() == 0 ? std::string() : to_json(doc);
  bool found = false;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(found, AccountRepo::set_limits(c, account_id, stored, s.clock.now_ms()));
    return {};
  }));
  if (!found) return ApiError::not_found("No account " + std::string(account_id) + ".");
  return get_account(s, account_id);
}

}  // namespace parley
