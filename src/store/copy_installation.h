// Moving an installation to another database (`parley migrate --from URL --to URL`): every table
// of the schema, row for row, as stored (API keys as their fingerprints, webhook secrets, the
// delivery history, rate windows), then each table's rows counted on both sides. Both databases
// are at the current schema (opening them migrates them); the target must hold no data yet.
#pragma once

#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct TableCopy {
  std::string table;
  int64_t rows_read = 0;     // in the source
  int64_t rows_counted = 0;  // in the target, counted after the copy
};

// The schema's tables in an order where every table comes after those it references: the order
// the migrations create them in.
std::vector<std::string> schema_tables();

// Copies every table of `from` into `to`. An error (nothing further copied) when the target holds
// data, or a write fails; the caller checks each TableCopy's counts.
Result<std::vector<TableCopy>> copy_installation(Database& from, Database& to);

}  // namespace parley
