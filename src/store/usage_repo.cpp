#include "store/usage_repo.h"
#include "store/pipelined.h"

namespace parley {

Result<int64_t> UsageRepo::count(Connection& c, std::string_view scope_id,
                                 std::string_view period) {
  PARLEY_ASSIGN_OR_RETURN(
      auto n, c.query_int("SELECT count FROM usage_counters WHERE scope_id = $1 AND period = $2",
                          {scope_id, period}));
  return n.value_or(0);
}

Result<void> UsageRepo::add_one(Connection& c, std::string_view scope_id, std::string_view period) {
  PARLEY_TRY(
      execute_later(c,
                    "INSERT INTO usage_counters (scope_id, period, count) VALUES ($1, $2, 1) "
                    "ON CONFLICT (scope_id, period) DO UPDATE SET count = usage_counters.count + 1",
                    {scope_id, period}));
  return {};
}

namespace {
constexpr std::string_view kAddOneBelow =
    "INSERT INTO usage_counters (scope_id, period, count) SELECT $1, $2, 1 WHERE $3 > 0 "
    "ON CONFLICT (scope_id, period) DO UPDATE SET count = usage_counters.count + 1 "
    "WHERE usage_counters.count < $3 RETURNING count";
}  // namespace

Result<bool> UsageRepo::add_one_below(Connection& c, std::string_view scope_id,
                                      std::string_view period, int64_t cap) {
  bool added = false;
  PARLEY_TRY(c.query(kAddOneBelow, {scope_id, period, cap}, [&](const Row&) { added = true; }));
  return added;
}

Result<void> UsageRepo::add_one_below_later(Connection& c, std::string_view scope_id,
                                            std::string_view period, int64_t cap, bool& added) {
  added = false;
  return query_later(c, kAddOneBelow, {scope_id, period, cap},
                     [&added](const Row&) { added = true; });
}

}  // namespace parley
