#include "store/migrations.h"

#include <set>

#include "store/db.h"

namespace parley {

Result<std::optional<int64_t>> Connection::query_int(std::string_view sql, Params params) {
  std::optional<int64_t> out;
  PARLEY_TRY(query(sql, params, [&](const Row& r) {
    if (!out && !r.is_null(0)) out = r.int64(0);
  }));
  return out;
}

Result<int> apply_migrations(Connection& conn) {
  PARLEY_TRY(conn.execute_script(
      "CREATE TABLE IF NOT EXISTS schema_migrations ("
      " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"));
  std::set<int64_t> applied;
  // Names too: binaries built before versions were decimal recorded 0013 as 11 (octal).
  std::set<std::string> applied_names;
  PARLEY_TRY(conn.query("SELECT version, name FROM schema_migrations", {}, [&](const Row& r) {
    applied.insert(r.int64(0));
    applied_names.insert(r.text(1));
  }));
  int count = 0;
  for (const auto& m : embedded_migrations()) {
    if (applied.count(m.version) || applied_names.count(std::string(m.name))) continue;
    PARLEY_TRY(conn.execute_script("BEGIN"));
    auto run = [&]() -> Result<void> {
      PARLEY_TRY(conn.execute_script(conn.schema_sql(m.sql)));
      PARLEY_TRY(conn.execute(
          "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
          {int64_t{m.version}, m.name, int64_t{0}}));
      return {};
    };
    auto r = run();
    if (!r.ok()) {
      (void)conn.execute_script("ROLLBACK");
      return ApiError::internal("migration " + std::string(m.name) + " failed: " + r.error().message);
    }
    PARLEY_TRY(conn.execute_script("COMMIT"));
    ++count;
  }
  return count;
}

}  // namespace parley
