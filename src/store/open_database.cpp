#include "store/db.h"
#include "store/postgres/pg_database.h"
#include "store/sqlite/sqlite_database.h"

namespace parley {

Result<std::unique_ptr<Database>> open_database(const DatabaseOptions& options) {
  std::string_view url = options.url;
  if (url.rfind("sqlite:", 0) == 0) {
    PARLEY_ASSIGN_OR_RETURN(auto db, SqliteDatabase::open(std::string(url.substr(7)), options.durability));
    return std::unique_ptr<Database>(std::move(db));
  }
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) {
    PARLEY_ASSIGN_OR_RETURN(auto db, PgDatabase::open(options));
    return std::unique_ptr<Database>(std::move(db));
  }
  return ApiError::invalid("database URL must start with sqlite: or postgresql://");
}

}  // namespace parley
