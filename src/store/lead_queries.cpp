#include "store/lead_queries.h"

namespace parley {

Result<Page<LeadRecord>> LeadQueries::list(Connection& c, std::string_view agent_id,
                                           const PageQuery& q) {
  std::string sql = "SELECT " + std::string(LeadRepo::columns()) + " FROM leads WHERE agent_id = $1";
  std::vector<DbValue> params{std::string(agent_id)};
  append_keyset(sql, params, q, "collected_at", "last_seen_at");
  std::vector<LeadRecord> rows;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { rows.push_back(LeadRepo::read_row(r)); }));
  return finish_page(std::move(rows), q.limit);
}

}  // namespace parley
