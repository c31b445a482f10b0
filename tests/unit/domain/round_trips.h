// What the round-trip tests print when a count is over its limit: the transaction's round trips,
// statements and first-use prepares, then each statement (cut to 160 characters).
#pragma once

#include <sstream>
#include <string>

#include "store/postgres/pg_database.h"

namespace parley {

inline std::string round_trip_listing(const PgConnection::TransactionCost& cost) {
  std::ostringstream out;
  out << cost.round_trips << " round trips, " << cost.statements << " statements, " << cost.prepares
      << " prepared:\n";
  for (const auto& sql : cost.sql) out << "  " << sql.substr(0, 160) << "\n";
  return out.str();
}

}  // namespace parley
