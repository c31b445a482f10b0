#include "store/shared_window_repo.h"

namespace parley {

Result<int64_t> SharedWindowRepo::add_hit(Connection& c, std::string_view name, int64_t window_start_ms) {
  int64_t count = 0;
  PARLEY_TRY(c.query(
      "INSERT INTO shared_windows (name, window_start, count) VALUES ($1, $2, 1)"
      " ON CONFLICT (name) DO UPDATE SET"
      " count = CASE WHEN excluded.window_start > shared_windows.window_start THEN 1"
      " ELSE shared_windows.count + 1 END,"
      " window_start = CASE WHEN excluded.window_start > shared_windows.window_start"
      " THEN excluded.window_start ELSE shared_windows.window_start END"
      " RETURNING count",
      {name, window_start_ms}, [&](const Row& r) { count = r.int64(0); }));
  return count;
}

Result<int64_t> SharedWindowRepo::count(Database& db, std::string_view name, int64_t window_start_ms) {
  int64_t n = 0;
  PARLEY_TRY(db.write_volatile([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(n, add_hit(c, name, window_start_ms));
    return {};
  }));
  return n;
}

Result<int64_t> SharedWindowRepo::purge(Connection& c, int64_t before_ms) {
  return c.execute("DELETE FROM shared_windows WHERE window_start < $1", {before_ms});
}

}  // namespace parley
