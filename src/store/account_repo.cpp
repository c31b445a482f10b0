#include "store/account_repo.h"

#include "store/entity_changes.h"
#include "store/pipelined.h"

namespace parley {

namespace {
constexpr std::string_view kColumns =
    "id, name, plan, COALESCE(limits, ''), created_at, updated_at, time_zone, retention_days";

Account read_account(const Row& r) {
  Account a;
  a.id = r.text(0);
  a.name = r.text(1);
  a.plan = parse_plan(r.text_view(2)).value_or(Plan::kFree);
  a.limits = r.text(3);
  a.overrides = parse_limit_overrides(a.limits);
  a.created_at = r.int64(4);
  a.updated_at = r.int64(5);
  a.time_zone = r.text(6);
  a.retention_days = r.opt_int64(7);
  return a;
}
}  // namespace

Result<void> AccountRepo::insert(Connection& c, const Account& a) {
  PARLEY_TRY(
      c.execute("INSERT INTO accounts (id, name, plan, limits, created_at, updated_at) VALUES ($1, "
                "$2, $3, $4, $5, $6)",
                {a.id, a.name, plan_name(a.plan), a.limits.empty() ? db_null() : DbValue(a.limits),
                 a.created_at, a.updated_at}));
  record_change(c, Entity::kAccount, a.id);
  return {};
}

Result<std::optional<Account>> AccountRepo::find(Connection& c, std::string_view id) {
  std::optional<Account> out;
  static const std::string sql = "SELECT " + std::string(kColumns) + " FROM accounts WHERE id = $1";
  PARLEY_TRY(c.query(sql, {id}, [&](const Row& r) { out = read_account(r); }));
  return out;
}

Result<void> AccountRepo::find_later(Connection& c, std::string_view id,
                                     std::optional<Account>& out) {
  out.reset();
  static const std::string sql = "SELECT " + std::string(kColumns) + " FROM accounts WHERE id = $1";
  return query_later(c, sql, {id}, [&out](const Row& r) { out = read_account(r); });
}

Result<std::vector<Account>> AccountRepo::list(Connection& c) {
  std::vector<Account> out;
  static const std::string sql =
      "SELECT " + std::string(kColumns) + " FROM accounts ORDER BY created_at DESC, id DESC";
  PARLEY_TRY(c.query(sql, {}, [&](const Row& r) { out.push_back(read_account(r)); }));
  return out;
}

Result<bool> AccountRepo::lock(Connection& c, std::string_view id) {
  return c.lock_row("accounts", id);
}

Result<bool> AccountRepo::set_plan(Connection& c, std::string_view id, Plan plan, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n,
                          c.execute("UPDATE accounts SET plan = $2, updated_at = $3 WHERE id = $1",
                                    {id, plan_name(plan), now}));
  if (n > 0) record_change(c, Entity::kAccount, id);
  return n > 0;
}

Result<bool> AccountRepo::set_limits(Connection& c, std::string_view id, std::string_view limits,
                                     int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("UPDATE accounts SET limits = $2, updated_at = $3 WHERE id = $1",
                           {id, limits.empty() ? db_null() : DbValue(limits), now}));
  if (n > 0) record_change(c, Entity::kAccount, id);
  return n > 0;
}

Result<bool> AccountRepo::set_time_zone(Connection& c, std::string_view id, std::string_view zone,
                                        int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("UPDATE accounts SET time_zone = $2, updated_at = $3 WHERE id = $1",
                           {id, zone, now}));
  if (n > 0) record_change(c, Entity::kAccount, id);
  return n > 0;
}

Result<bool> AccountRepo::set_retention(Connection& c, std::string_view id,
                                        std::optional<int64_t> days, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("UPDATE accounts SET retention_days = $2, updated_at = $3 WHERE id = $1",
                           {id, db_opt(days), now}));
  if (n > 0) record_change(c, Entity::kAccount, id);
  return n > 0;
}

Result<std::vector<std::pair<std::string, int64_t>>> AccountRepo::with_retention(Connection& c) {
  std::vector<std::pair<std::string, int64_t>> out;
  PARLEY_TRY(c.query(
      "SELECT id, retention_days FROM accounts WHERE retention_days IS NOT NULL ORDER BY id", {},
      [&](const Row& r) { out.emplace_back(r.text(0), r.int64(1)); }));
  return out;
}

}  // namespace parley
