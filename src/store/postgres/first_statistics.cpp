#include "store/postgres/first_statistics.h"

#include <chrono>

#include "core/log.h"
#include "store/statistics.h"

namespace parley {

FirstStatistics::FirstStatistics(Database& db)
    : db_(db), every_two_seconds_(std::chrono::seconds(2), [this] {
        if (!db_.read().ok()) return;  // the database is away: the next round tries again
        auto analyzed = analyze_new_tables(db_, tried_);
        if (!analyzed.ok()) {
          log_warn("tables not analyzed", {{"error", std::string_view(analyzed.error().message)}});
        }
      }) {}

Result<std::vector<std::string>> FirstStatistics::analyze_new_tables(Database& db,
                                                                     std::set<std::string>& tried) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  std::vector<std::string> tables;
  PARLEY_TRY(c.query(
      "SELECT format('%I.%I', schemaname, relname) FROM pg_stat_user_tables "
      "WHERE schemaname = current_schema() AND last_analyze IS NULL AND last_autoanalyze IS NULL "
      "AND n_live_tup >= $1 ORDER BY relname",
      {kRows}, [&](const Row& r) {
        if (tried.insert(r.text(0)).second) tables.push_back(r.text(0));
      }));
  for (const auto& table : tables) PARLEY_TRY(refresh_statistics(db, table));
  return tables;
}

}  // namespace parley
