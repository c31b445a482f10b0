// Accounts: the tenant every key, agent and record belongs to.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/plans.h"
#include "store/db.h"

namespace parley {

struct Account {
  std::string id;
  std::string name;
  Plan plan = Plan::kFree;
  std::string limits;        // JSON overrides as an operator set them, empty when none
  LimitOverrides overrides;  // the same, read once when the account is read
  int64_t created_at = 0;
  int64_t updated_at = 0;
  std::string time_zone = "UTC";          // IANA name: the account's days for figures
  std::optional<int64_t> retention_days;  // conversations older than this are deleted; none: kept
};

class AccountRepo {
 public:
  static Result<void> insert(Connection& c, const Account& a);
  static Result<std::optional<Account>> find(Connection& c, std::string_view id);
  // find() without waiting (store/pipelined.h query_later): `out` is filled when the answer comes
  // back, with the next statement that waits; it must live until then.
  static Result<void> find_later(Connection& c, std::string_view id, std::optional<Account>& out);
  static Result<std::vector<Account>> list(Connection& c);
  // Holds the account's row until the transaction ends (Connection::lock_row): taken before a
  // check over what the account owns that a write then relies on (its last owner). False when
  // there is no such account.
  static Result<bool> lock(Connection& c, std::string_view id);
  // Returns false when no such account.
  static Result<bool> set_plan(Connection& c, std::string_view id, Plan plan, int64_t now);
  static Result<bool> set_limits(Connection& c, std::string_view id, std::string_view limits,
                                 int64_t now);
  static Result<bool> set_time_zone(Connection& c, std::string_view id, std::string_view zone,
                                    int64_t now);
  // Sets or clears (nothing) the retention; false when no such account.
  static Result<bool> set_retention(Connection& c, std::string_view id, std::optional<int64_t> days,
                                    int64_t now);
  // The accounts that keep conversations for a limited time: {id, retention_days}.
  static Result<std::vector<std::pair<std::string, int64_t>>> with_retention(Connection& c);
};

}  // namespace parley
