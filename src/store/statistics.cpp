#include "store/statistics.h"

#include <string>

namespace parley {

Result<void> refresh_statistics(Database& db, std::string_view table) {
  if (db.backend() != "postgresql") return {};
  std::string sql = "ANALYZE " + std::string(table);
  return db.write_volatile([&](Connection& c) -> Result<void> { return c.execute_script(sql); });
}

}  // namespace parley
