#include "store/db.h"

namespace parley {

Result<void> Database::ping() {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, read());
  PARLEY_ASSIGN_OR_RETURN(auto one, c.query_int("SELECT 1", {}));
  if (one != 1) return ApiError{ErrorCode::kUnavailable, "The database answered wrongly."};
  return {};
}

}  // namespace parley
