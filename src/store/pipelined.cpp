#include "store/pipelined.h"

#include "store/postgres/pg_connection.h"

namespace parley {

Result<void> execute_later(Connection& c, std::string_view sql, Params params) {
  if (auto* pg = dynamic_cast<PgConnection*>(&c); pg != nullptr && pg->in_transaction()) {
    return pg->send(sql, params);
  }
  PARLEY_TRY(c.execute(sql, params));
  return {};
}

}  // namespace parley
