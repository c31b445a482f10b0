#include "store/shared_window_repo.h"

#include <algorithm>
#include <limits>
#include <string>

namespace parley {

namespace {
// One statement for take(): $1 name, $2 window start, $3 cap, $4 events wanted.
const std::string& take_sql() {
  // The count after adding the events wanted (excluded.count) to the stored row, capped at $3.
  static const std::string capped_sum =
      "CASE WHEN excluded.window_start > shared_windows.window_start THEN excluded.count"
      " WHEN shared_windows.count + excluded.count <= $3 THEN shared_windows.count + excluded.count"
      " WHEN shared_windows.count < $3 THEN $3"
      " ELSE shared_windows.count END";
  static const std::string sql =
      "INSERT INTO shared_windows (name, window_start, count, taken) VALUES ($1, $2, $4, $4)"
      " ON CONFLICT (name) DO UPDATE SET count = " + capped_sum +
      ", taken = " + capped_sum +
      " - CASE WHEN excluded.window_start > shared_windows.window_start THEN 0 ELSE shared_windows.count END,"
      " window_start = CASE WHEN excluded.window_start > shared_windows.window_start"
      " THEN excluded.window_start ELSE shared_windows.window_start END"
      " RETURNING count, taken";
  return sql;
}
}  // namespace

Result<WindowTake> SharedWindowRepo::take(Connection& c, std::string_view name, int64_t window_start_ms,
                                          int64_t wanted, int64_t cap) {
  // A new window starts at `wanted`: callers ask for more than one event only when the count they
  // last saw leaves room, so a fresh window never starts past the cap.
  WindowTake out{0, 0};
  PARLEY_TRY(c.query(take_sql(), {name, window_start_ms, cap, std::max<int64_t>(1, wanted)}, [&](const Row& r) {
    out.count = r.int64(0);
    out.taken = r.int64(1);
  }));
  return out;
}

Result<void> SharedWindowRepo::give_back(Connection& c, std::string_view name, int64_t window_start_ms,
                                         int64_t unused) {
  PARLEY_TRY(c.execute("UPDATE shared_windows SET count = count - $3 WHERE name = $1 AND window_start = $2",
                       {name, window_start_ms, unused}));
  return {};
}

Result<void> SharedWindowRepo::forget(Connection& c, std::string_view name) {
  PARLEY_TRY(c.execute("DELETE FROM shared_windows WHERE name = $1", {name}));
  return {};
}

Result<int64_t> SharedWindowRepo::count(Database& db, std::string_view name, int64_t window_start_ms) {
  int64_t n = 0;
  PARLEY_TRY(db.write_volatile([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(WindowTake t, take(c, name, window_start_ms, 1, std::numeric_limits<int64_t>::max()));
    n = t.count;
    return {};
  }));
  return n;
}

Result<int64_t> SharedWindowRepo::peek(Connection& c, std::string_view name,
                                       int64_t window_start_ms) {
  PARLEY_ASSIGN_OR_RETURN(
      auto n, c.query_int("SELECT count FROM shared_windows WHERE name = $1 AND window_start >= $2",
                          {name, window_start_ms}));
  return n.value_or(0);
}

Result<int64_t> SharedWindowRepo::purge(Connection& c, int64_t before_ms) {
  constexpr int64_t kLastingMs = 31LL * 86'400'000;
  return c.execute(
      "DELETE FROM shared_windows WHERE window_start < $1 AND (name NOT LIKE $2 OR window_start < "
      "$3)",
      {before_ms, std::string(kLastingPrefix) + "%", before_ms - kLastingMs});
}

}  // namespace parley
