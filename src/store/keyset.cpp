#include "store/keyset.h"

namespace parley {

void append_keyset(std::string& sql, std::vector<DbValue>& params, const PageQuery& q,
                   std::string_view time_column, std::string_view since_column) {
  auto next = [&] { return "$" + std::to_string(params.size() + 1); };
  const std::string time(time_column);
  if (q.after) {
    // The first condition is the index range; the second skips the ties already returned.
    std::string t = next();
    params.emplace_back(q.after->time);
    std::string i = next();
    params.emplace_back(q.after->id);
    sql += " AND " + time + " <= " + t + " AND (" + time + " < " + t + " OR id < " + i + ")";
  }
  if (q.since) {
    // Unary plus keeps the planner on the ordered index (valid SQL in both engines): an index on
    // the since column alone would need a sort of every match.
    sql += " AND +" + std::string(since_column) + " >= " + next();
    params.emplace_back(*q.since);
  }
  sql += " ORDER BY " + time + " DESC, id DESC LIMIT " + next();
  params.emplace_back(q.limit + 1);
}

}  // namespace parley
