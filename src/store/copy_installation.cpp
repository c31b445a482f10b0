#include "store/copy_installation.h"
#include "store/entity_changes.h"
#include "store/placeholders.h"

#include <deque>
#include <regex>
#include <set>

#include "store/migrations.h"

namespace parley {

namespace {
constexpr size_t kRowsPerTransaction = 500;

// A value read from the source, owned until it is written.
struct Cell {
  ColumnKind kind = ColumnKind::kNull;
  int64_t integer = 0;
  double real = 0;
  std::string bytes;  // text or blob
};
using StoredRow = std::vector<Cell>;

struct TableRows {
  std::vector<std::string> columns;
  std::vector<StoredRow> rows;
};

Result<TableRows> read_table(Connection& c, const std::string& table) {
  TableRows out;
  PARLEY_TRY(c.query("SELECT * FROM " + table, {}, [&](const Row& r) {
    if (out.columns.empty())
      for (int i = 0; i < r.column_count(); ++i) out.columns.emplace_back(r.column_name(i));
    StoredRow row(static_cast<size_t>(r.column_count()));
    for (int i = 0; i < r.column_count(); ++i) {
      Cell& cell = row[static_cast<size_t>(i)];
      cell.kind = r.kind(i);
      switch (cell.kind) {
        case ColumnKind::kNull: break;
        case ColumnKind::kInteger: cell.integer = r.int64(i); break;
        case ColumnKind::kReal: cell.real = r.real(i); break;
        case ColumnKind::kText: cell.bytes = r.text(i); break;
        case ColumnKind::kBlob: cell.bytes = std::string(r.blob_view(i)); break;
      }
    }
    out.rows.push_back(std::move(row));
  }));
  return out;
}

DbValue value_of(const Cell& cell) {
  switch (cell.kind) {
    case ColumnKind::kNull: return db_null();
    case ColumnKind::kInteger: return cell.integer;
    case ColumnKind::kReal: return cell.real;
    case ColumnKind::kText: return std::string_view(cell.bytes);
    case ColumnKind::kBlob: return DbBlob{cell.bytes};
  }
  return db_null();
}

std::string insert_sql(const std::string& table, const std::vector<std::string>& columns) {
  std::string names;
  for (size_t i = 0; i < columns.size(); ++i) names += (i ? ", " : "") + columns[i];
  return "INSERT INTO " + table + " (" + names + ") VALUES (" + placeholders(1, columns.size()) +
         ")";
}

Result<int64_t> count_rows(Connection& c, const std::string& table) {
  PARLEY_ASSIGN_OR_RETURN(auto n, c.query_int("SELECT count(*) FROM " + table, {}));
  return n.value_or(0);
}
}  // namespace

std::vector<std::string> schema_tables() {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::regex create(R"(CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+))");
  for (const auto& m : embedded_migrations()) {
    std::string sql(m.sql);
    for (std::sregex_iterator it(sql.begin(), sql.end(), create), end; it != end; ++it) {
      std::string name = (*it)[1];
      if (seen.insert(name).second) out.push_back(name);
    }
  }
  return out;
}

Result<std::vector<TableCopy>> copy_installation(Database& from, Database& to) {
  std::vector<std::string> tables = schema_tables();
  PARLEY_ASSIGN_OR_RETURN(Connection & source, from.read());
  PARLEY_ASSIGN_OR_RETURN(Connection & target, to.read());
  for (const auto& table : tables) {
    PARLEY_ASSIGN_OR_RETURN(int64_t n, count_rows(target, table));
    if (n > 0) {
      return ApiError{ErrorCode::kConflict, "the target database already holds data (" + table + " has " +
                                                std::to_string(n) + " rows); copy into an empty database"};
    }
  }
  std::vector<TableCopy> copies;
  for (const auto& table : tables) {
    PARLEY_ASSIGN_OR_RETURN(TableRows read, read_table(source, table));
    TableCopy copy{table, static_cast<int64_t>(read.rows.size()), 0};
    std::string sql = insert_sql(table, read.columns);
    for (size_t start = 0; start < read.rows.size(); start += kRowsPerTransaction) {
      size_t end = std::min(read.rows.size(), start + kRowsPerTransaction);
      PARLEY_TRY(to.write([&](Connection& c) -> Result<void> {
        std::vector<DbValue> params;
        for (size_t i = start; i < end; ++i) {
          params.clear();
          for (const Cell& cell : read.rows[i]) params.push_back(value_of(cell));
          PARLEY_TRY(c.query(sql, params, [](const Row&) {}));
        }
        if (UnitOfWork* work = work_of(c))
          work->everything_changed();  // rows of every kind, not recorded one by one
        return {};
      }));
    }
    PARLEY_ASSIGN_OR_RETURN(copy.rows_counted, count_rows(target, table));
    copies.push_back(std::move(copy));
  }
  return copies;
}

}  // namespace parley
