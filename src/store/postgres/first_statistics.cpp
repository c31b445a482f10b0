#include "store/postgres/first_statistics.h"

#include <chrono>

#include "core/log.h"

namespace parley {

FirstStatistics::FirstStatistics(ConnectionFn connection)
    : connection_(std::move(connection)), every_two_seconds_(std::chrono::seconds(2), [this] {
        auto c = connection_();
        if (!c.ok()) return;  // the database is away: the next round tries again
        auto analyzed = analyze_new_tables(c->get(), tried_);
        if (!analyzed.ok()) {
          log_warn("tables not analyzed", {{"error", std::string_view(analyzed.error().message)}});
        }
      }) {}

Result<std::vector<std::string>> FirstStatistics::analyze_new_tables(Connection& c,
                                                                     std::set<std::string>& tried) {
  std::vector<std::string> tables;
  PARLEY_TRY(c.query(
      "SELECT format('%I.%I', schemaname, relname) FROM pg_stat_user_tables "
      "WHERE schemaname = current_schema() AND last_analyze IS NULL AND last_autoanalyze IS NULL "
      "AND n_live_tup >= $1 ORDER BY relname",
      {kRows}, [&](const Row& r) {
        if (tried.insert(r.text(0)).second) tables.push_back(r.text(0));
      }));
  for (const auto& table : tables) PARLEY_TRY(c.execute_script("ANALYZE " + table));
  return tables;
}

}  // namespace parley
