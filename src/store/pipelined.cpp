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

Result<void> execute_later(Connection& c, std::string_view sql,
                           const std::vector<DbValue>& params) {
  return query_later(c, sql, params, nullptr);
}

Result<void> query_later(Connection& c, std::string_view sql, Params params, RowFn on_row) {
  if (auto* pg = dynamic_cast<PgConnection*>(&c); pg != nullptr && pg->in_transaction()) {
    return pg->send(sql, params, std::move(on_row));
  }
  return c.query(sql, params, on_row);
}

Result<void> query_later(Connection& c, std::string_view sql, const std::vector<DbValue>& params,
                         RowFn on_row) {
  if (auto* pg = dynamic_cast<PgConnection*>(&c); pg != nullptr && pg->in_transaction()) {
    return pg->send(sql, std::span(params), std::move(on_row));
  }
  if (!on_row) on_row = [](const Row&) {};
  return c.query(sql, params, on_row);
}

uint64_t answers_mark(Connection& c) {
  auto* pg = dynamic_cast<PgConnection*>(&c);
  return pg != nullptr ? pg->queued_count() : 0;
}

Result<void> wait_for_answers(Connection& c, uint64_t mark) {
  auto* pg = dynamic_cast<PgConnection*>(&c);
  if (pg == nullptr || !pg->in_transaction() || pg->answered_count() >= mark) return {};
  return pg->send_queued();
}

Result<void> lock_row_later(Connection& c, std::string_view table, std::string_view id,
                            bool& found) {
  auto* pg = dynamic_cast<PgConnection*>(&c);
  if (pg == nullptr || !pg->in_transaction()) {
    PARLEY_ASSIGN_OR_RETURN(found, c.lock_row(table, id));
    return {};
  }
  found = false;
  return pg->send(PgConnection::lock_row_sql(table), {id}, [&found](const Row&) { found = true; });
}

}  // namespace parley
