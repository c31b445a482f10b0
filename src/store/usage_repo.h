// Usage counters: how many of something a scope (an account or agent id) used in a period
// ("m:2026-11", "h:2026-11-22T10"), one row per scope and period. Stateless; every function runs
// on the connection it is given.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "store/db.h"

namespace parley {

class UsageRepo {
 public:
  // The count of the scope in the period; 0 when none.
  static Result<int64_t> count(Connection& c, std::string_view scope_id, std::string_view period);
  // The counts of three (scope, period) pairs, in their order, with one statement; 0 for one
  // that has none.
  using ScopePeriod = std::pair<std::string_view, std::string_view>;
  static Result<std::array<int64_t, 3>> counts(Connection& c,
                                               const std::array<ScopePeriod, 3>& asked);
  // Adds one, in one statement (no read of the count first). With `count`, the statement returns
  // the count it made, set there when its answer comes back (store/pipelined.h query_later).
  static Result<void> add_one(Connection& c, std::string_view scope_id, std::string_view period,
                              int64_t* count = nullptr);
  // Takes one off (never below 0), in one statement: a count given back.
  static Result<void> subtract_one(Connection& c, std::string_view scope_id,
                                   std::string_view period);
  // Adds one unless the count already reached `cap`; false (and nothing added) when it had. One
  // statement, so that two writers near the cap cannot both pass it.
  static Result<bool> add_one_below(Connection& c, std::string_view scope_id,
                                    std::string_view period, int64_t cap);
  // One added to a (scope, period), as add_one (no cap) or add_one_below (`cap`); `count`, when
  // given, receives the count it made, 0 when nothing was added.
  static constexpr int64_t kNoCap = INT64_MAX;
  struct Add {
    std::string_view scope_id;
    std::string_view period;
    int64_t cap = kNoCap;
    int64_t* count = nullptr;
  };
  // Several adds of distinct pairs in one statement, without waiting (store/pipelined.h
  // query_later): a turn's counts cost one statement, not one each. Each add is as add_one or
  // add_one_below would make it; their counts are set when the answer comes back.
  static Result<void> add_later(Connection& c, std::span<const Add> adds);
  // A count and its limit: below `limit`, one more is allowed.
  struct Limit {
    std::string_view scope_id;
    std::string_view period;
    int64_t limit = kNoCap;
  };
  // Adds one to `counted` unless its count reached its limit, and only while each of `under`'s
  // counts is below its own: limits checked and a count taken in one statement, so that
  // concurrent writers never pass `counted`'s limit. The count made; none when nothing was added.
  static Result<std::optional<int64_t>> add_one_within(Connection& c, const Limit& counted,
                                                       std::span<const Limit> under);
};

}  // namespace parley
