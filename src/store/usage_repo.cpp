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

Result<std::vector<int64_t>> UsageRepo::counts(
    Connection& c, std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  if (pairs.size() > 3) return ApiError::internal("UsageRepo::counts takes at most three pairs");
  // Unused slots repeat the first pair; each row is matched back to every pair it answers.
  std::vector<std::pair<std::string_view, std::string_view>> asked(pairs);
  std::vector<DbValue> params;
  for (size_t i = 0; i < 3; ++i) {
    const auto& [scope, period] = asked[i < asked.size() ? i : 0];
    params.emplace_back(scope);
    params.emplace_back(period);
  }
  std::vector<int64_t> out(asked.size(), 0);
  PARLEY_TRY(c.query("SELECT scope_id, period, count FROM usage_counters"
                     " WHERE (scope_id = $1 AND period = $2) OR (scope_id = $3 AND period = $4)"
                     " OR (scope_id = $5 AND period = $6)",
                     params, [&](const Row& r) {
                       std::string_view scope = r.text_view(0), period = r.text_view(1);
                       for (size_t i = 0; i < asked.size(); ++i) {
                         if (asked[i].first == scope && asked[i].second == period)
                           out[i] = r.int64(2);
                       }
                     }));
  return out;
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
