#include "store/lead_queries.h"

namespace parley {

Result<Page<LeadRecord>> LeadQueries::list(Connection& c, std::string_view agent_id,
                                           const PageQuery& q) {
  const KeysetTable table{"leads", LeadRepo::columns(), "collected_at", "last_seen_at"};
  std::vector<LeadRecord> rows;
  PARLEY_TRY(query_keyset_page(c, table, "agent_id = $1", {std::string(agent_id)}, q,
                               [&](const Row& r) { rows.push_back(LeadRepo::read_row(r)); }));
  return finish_page(std::move(rows), q.limit);
}

}  // namespace parley
