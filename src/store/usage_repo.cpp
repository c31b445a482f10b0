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

Result<std::array<int64_t, 3>> UsageRepo::counts(Connection& c,
                                                 const std::array<ScopePeriod, 3>& asked) {
  std::array<int64_t, 3> out{};
  PARLEY_TRY(c.query("SELECT scope_id, period, count FROM usage_counters"
                     " WHERE (scope_id = $1 AND period = $2) OR (scope_id = $3 AND period = $4)"
                     " OR (scope_id = $5 AND period = $6)",
                     {asked[0].first, asked[0].second, asked[1].first, asked[1].second,
                      asked[2].first, asked[2].second},
                     [&](const Row& r) {
                       const ScopePeriod row{r.text_view(0), r.text_view(1)};
                       for (size_t i = 0; i < asked.size(); ++i)
                         if (asked[i] == row) out[i] = r.int64(2);
                     }));
  return out;
}

Result<void> UsageRepo::add_one(Connection& c, std::string_view scope_id, std::string_view period,
                                int64_t* count) {
  if (count != nullptr) *count = 0;
  return query_later(
      c,
      "INSERT INTO usage_counters (scope_id, period, count) VALUES ($1, $2, 1) "
      "ON CONFLICT (scope_id, period) DO UPDATE SET count = usage_counters.count + 1 "
      "RETURNING count",
      {scope_id, period}, [count](const Row& r) {
        if (count != nullptr) *count = r.int64(0);
      });
}

Result<void> UsageRepo::subtract_one(Connection& c, std::string_view scope_id,
                                     std::string_view period) {
  return execute_later(c,
                       "UPDATE usage_counters SET count = count - 1"
                       " WHERE scope_id = $1 AND period = $2 AND count > 0",
                       {scope_id, period});
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
                                            std::string_view period, int64_t cap, int64_t& count) {
  count = 0;
  return query_later(c, kAddOneBelow, {scope_id, period, cap},
                     [&count](const Row& r) { count = r.int64(0); });
}

}  // namespace parley
