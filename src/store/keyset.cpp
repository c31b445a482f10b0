#include "store/keyset.h"

namespace parley {

namespace {
// Builds one statement: column names come from code, every value is a parameter.
class Sql {
 public:
  Sql(std::string head, const std::vector<DbValue>& params)
      : sql_(std::move(head)), params_(params) {}
  std::string param(DbValue v) {
    params_.push_back(std::move(v));
    return "$" + std::to_string(params_.size());
  }
  Sql& add(std::string_view text) {
    sql_ += text;
    return *this;
  }
  // Strictly after the position. The first condition is the index range, the second skips the
  // ties already returned. `plus` ("+") keeps the planner off the ordered index.
  void after(const KeysetPosition& at, std::string_view time, std::string_view plus) {
    std::string t = param(at.time);
    std::string i = param(at.id);
    std::string col = std::string(plus) + std::string(time);
    sql_ += " AND " + col + " <= " + t + " AND (" + col + " < " + t + " OR id < " + i + ")";
  }
  void order(std::string_view time, std::string_view plus, int64_t limit) {
    sql_ += " ORDER BY " + std::string(plus) + std::string(time) + " DESC, id DESC LIMIT " +
            param(limit);
  }
  Result<void> run(Connection& c, const RowFn& on_row) { return c.query(sql_, params_, on_row); }

 private:
  std::string sql_;
  std::vector<DbValue> params_;
};

std::string select_from(const KeysetTable& t, std::string_view what, std::string_view scope) {
  return "SELECT " + std::string(what) + " FROM " + std::string(t.table) + " WHERE " +
         std::string(scope);
}
}  // namespace

Result<void> query_keyset_page(Connection& c, const KeysetTable& t, std::string_view scope,
                               const std::vector<DbValue>& scope_params, const PageQuery& q,
                               const RowFn& on_row) {
  const int64_t want = q.limit + 1;
  int64_t got = 0;
  RowFn counted = [&](const Row& r) {
    ++got;
    on_row(r);
  };
  const std::string rows = select_from(t, t.columns, scope);
  const std::string time(t.time_column), since_col(t.since_column);

  if (!q.since) {
    Sql s(rows, scope_params);
    if (q.after) s.after(*q.after, time, "");
    s.order(time, "", want);
    return s.run(c, counted);
  }
  const int64_t since = *q.since;

  // Created at or after `since`: every such item has activity since then.
  if (!q.after || q.after->time >= since) {
    Sql s(rows, scope_params);
    if (q.after) s.after(*q.after, time, "");
    s.add(" AND " + time + " >= " + s.param(since));
    s.order(time, "", want);
    PARLEY_TRY(s.run(c, counted));
    if (got >= want) return {};
  }

  // Created before `since` and active since then. How many items are active decides the index.
  Sql probe("SELECT COUNT(*) FROM (" + select_from(t, "1", scope), scope_params);
  probe.add(" AND " + since_col + " >= " + probe.param(since));
  probe.add(" LIMIT " + probe.param(kActiveSetLimit) + ") active");
  int64_t active = 0;
  PARLEY_TRY(probe.run(c, [&](const Row& r) { active = r.int64(0); }));

  if (active < kActiveSetLimit) {
    // Top-N of the few active items from the activity index alone, then their rows by id.
    Sql keys(select_from(t, "id", scope), scope_params);
    keys.add(" AND " + since_col + " >= " + keys.param(since));
    keys.add(" AND +" + time + " < " + keys.param(since));
    if (q.after) keys.after(*q.after, time, "+");
    keys.order(time, "+", want - got);
    std::vector<std::string> ids;
    PARLEY_TRY(keys.run(c, [&](const Row& r) { ids.push_back(r.text(0)); }));
    const std::string by_id =
        "SELECT " + std::string(t.columns) + " FROM " + std::string(t.table) + " WHERE id = $1";
    for (const auto& id : ids) PARLEY_TRY(c.query(by_id, {id}, counted));
    return {};
  }

  // Many active items: walk the ordered index, testing activity from the index entry.
  Sql s(rows, scope_params);
  if (q.after) s.after(*q.after, time, "");
  s.add(" AND " + time + " < " + s.param(since));
  s.add(" AND +" + since_col + " >= " + s.param(since));
  s.order(time, "", want - got);
  return s.run(c, counted);
}

}  // namespace parley
