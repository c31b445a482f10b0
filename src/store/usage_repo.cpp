#include "store/usage_repo.h"
#include "store/pipelined.h"

#include <algorithm>
#include <string>
#include <vector>

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

Result<bool> UsageRepo::add_one_below(Connection& c, std::string_view scope_id,
                                      std::string_view period, int64_t cap) {
  PARLEY_ASSIGN_OR_RETURN(auto made, add_one_within(c, {scope_id, period, cap}, {}));
  return made.has_value();
}

Result<std::optional<int64_t>> UsageRepo::add_one_within(Connection& c, const Limit& counted,
                                                         std::span<const Limit> under) {
  // The row is inserted only under a limit above 0, and an existing count moves only while it is
  // below it; each count of `under` (none: 0) is a condition of the SELECT.
  std::vector<DbValue> params{counted.scope_id, counted.period, counted.limit};
  std::string sql =
      "INSERT INTO usage_counters (scope_id, period, count) SELECT $1, $2, 1"
      " WHERE CAST($3 AS BIGINT) > 0";
  for (const Limit& u : under) {
    if (u.limit == kNoCap) continue;  // always below it: not read
    const size_t n = params.size();
    params.insert(params.end(), {u.scope_id, u.period, u.limit});
    sql += " AND COALESCE((SELECT count FROM usage_counters WHERE scope_id = $" +
           std::to_string(n + 1) + " AND period = $" + std::to_string(n + 2) + "), 0) < CAST($" +
           std::to_string(n + 3) + " AS BIGINT)";
  }
  sql +=
      " ON CONFLICT (scope_id, period) DO UPDATE SET count = usage_counters.count + 1"
      " WHERE usage_counters.count < CAST($3 AS BIGINT) RETURNING count";
  std::optional<int64_t> made;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { made = r.int64(0); }));
  return made;
}

Result<void> UsageRepo::add_later(Connection& c, std::span<const Add> adds) {
  for (const Add& a : adds) {
    if (a.count != nullptr) *a.count = 0;
  }
  if (adds.empty()) return {};
  for (size_t i = 0; i < adds.size(); ++i) {
    for (size_t j = i + 1; j < adds.size(); ++j) {
      // One statement cannot move a row twice (PostgreSQL refuses it).
      if (adds[i].scope_id == adds[j].scope_id && adds[i].period == adds[j].period)
        return ApiError::internal("usage counted twice in one statement");
    }
  }
  // Each pair is a row of the VALUES list. Under a cap, the row carries it: a row is inserted
  // only under a cap above 0 (as add_one_below) and an existing count moves only while it is
  // below its pair's cap, which the update finds by the row's own key. Without caps, a plain
  // upsert (as add_one).
  const bool capped =
      std::any_of(adds.begin(), adds.end(), [](const Add& a) { return a.cap != kNoCap; });
  std::vector<DbValue> params;
  params.reserve(adds.size() * 3);
  std::string rows, caps;
  for (size_t i = 0; i < adds.size(); ++i) {
    const size_t width = capped ? 3 : 2;
    const std::string n = std::to_string(width * i + 1), p = std::to_string(width * i + 2);
    params.insert(params.end(), {adds[i].scope_id, adds[i].period});
    if (!capped) {
      rows += (i == 0 ? "($" : ", ($") + n + ", $" + p + ", 1)";
      continue;
    }
    const std::string cap = "CAST($" + std::to_string(width * i + 3) + " AS BIGINT)";
    params.emplace_back(adds[i].cap);
    rows += (i == 0 ? "($" : ", ($") + n + ", $" + p + ", " + cap + ")";
    if (i + 1 < adds.size()) {
      caps += " WHEN usage_counters.scope_id = $" + n + " AND usage_counters.period = $" + p +
              " THEN " + cap;
    } else {
      caps = adds.size() == 1 ? cap : "CASE" + caps + " ELSE " + cap + " END";
    }
  }
  const std::string sql =
      capped ? "INSERT INTO usage_counters (scope_id, period, count) SELECT column1, column2, 1"
               " FROM (VALUES " +
                   rows +
                   ") AS adds WHERE column3 > 0"
                   " ON CONFLICT (scope_id, period) DO UPDATE SET count = usage_counters.count + 1"
                   " WHERE usage_counters.count < " +
                   caps + " RETURNING scope_id, period, count"
             : "INSERT INTO usage_counters (scope_id, period, count) VALUES " + rows +
                   " ON CONFLICT (scope_id, period) DO UPDATE SET count = usage_counters.count + 1"
                   " RETURNING scope_id, period, count";
  // Copies: the caller's strings may be gone when the answer comes back.
  struct Told {
    std::string scope_id, period;
    int64_t* count;
  };
  std::vector<Told> told;
  for (const Add& a : adds) {
    if (a.count != nullptr)
      told.push_back({std::string(a.scope_id), std::string(a.period), a.count});
  }
  return query_later(c, sql, params, [told = std::move(told)](const Row& r) {
    for (const Told& t : told) {
      if (r.text_view(0) == t.scope_id && r.text_view(1) == t.period) *t.count = r.int64(2);
    }
  });
}

}  // namespace parley
