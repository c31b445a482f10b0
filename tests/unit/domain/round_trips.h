// What the round-trip tests read and print: a write transaction's round trips, statements and
// first-use prepares, then each statement (cut to 160 characters).
#pragma once

#include <cstdlib>
#include <iostream>
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

// The cost of the calling thread's last write transaction; PARLEY_SHOW_ROUND_TRIPS=1 prints its
// statements too.
inline PgConnection::TransactionCost last_write_cost_shown() {
  if (std::getenv("PARLEY_SHOW_ROUND_TRIPS") != nullptr) {
    std::cout << round_trip_listing(PgDatabase::last_write_cost());
  }
  return PgDatabase::last_write_cost();
}

}  // namespace parley
