// What the round-trip tests read and print: a write transaction's round trips, statements and
// first-use prepares, then each statement (cut to 160 characters).
#pragma once

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <memory>

#include "../store/contract/store_contract.h"
#include "core/clock.h"
#include "core/random.h"
#include "domain/accounts.h"
#include "domain/agents.h"
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

// A PostgreSQL store of its own (skipped without PARLEY_TEST_POSTGRES_URL) with an account and an
// agent, every statement's text kept for round_trip_listing.
class RoundTripsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = open_postgres_store();
    if (store_ == nullptr) GTEST_SKIP() << "PARLEY_TEST_POSTGRES_URL names no PostgreSQL cluster";
    PgConnection::keep_statement_sql(true);
    Services s{store_->db(), clock_, random_};
    account_ = create_account(s, "Acme", "starter")->id;
    agent_ = create_agent(s, account_, "Helper", false, "")->id;
  }
  void TearDown() override {
    PgConnection::keep_statement_sql(false);
    store_.reset();
  }

  std::unique_ptr<StoreUnderTest> store_;
  ManualClock clock_{1'795'345'572'123};
  SecureRandom random_;
  std::string account_, agent_;
};

}  // namespace parley
