// What a contact upsert's write transaction (POST /api/v1/contacts) costs on PostgreSQL, counted
// (not timed): its round trips to the server (PgConnection::transaction_cost). Runs on the
// cluster PARLEY_TEST_POSTGRES_URL names; skipped without one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "../store/contract/store_contract.h"
#include "domain/accounts.h"
#include "domain/agents.h"
#include "domain/contacts.h"
#include "store/agent_repo.h"
#include "store/postgres/pg_database.h"
#include "round_trips.h"

namespace parley {
namespace {

ContactInput person(std::string external_id, std::string email, std::string name) {
  ContactInput in;
  in.external_id = {true, std::move(external_id)};
  in.email = {true, std::move(email)};
  in.name = {true, std::move(name)};
  return in;
}

class ContactRoundTripsTest : public RoundTripsTest {
 protected:
  void SetUp() override {
    RoundTripsTest::SetUp();
    if (IsSkipped()) return;
    auto read = store_->db().read();
    agent_record_ = *AgentRepo::find_any(read->get(), agent_).value();
  }

  PgConnection::TransactionCost upsert(const ContactInput& in, bool expect_created) {
    Services s{store_->db(), clock_, random_};
    auto saved = upsert_contact(s, agent_record_, in, "api");
    EXPECT_TRUE(saved.ok());
    if (saved.ok()) EXPECT_EQ(saved->created, expect_created);
    clock_.advance_ms(1000);
    return last_write_cost_shown();
  }

  AgentRecord agent_record_;
};

TEST_F(ContactRoundTripsTest, AnUpsertThatUpdatesTakesTwoRoundTrips) {
  upsert(person("u-1", "ann@example.com", "Ann"), true);
  upsert(person("u-1", "ann@example.com", "Ann B."), false);  // the connection prepares
  auto cost = upsert(person("u-1", "ann@example.com", "Ann C."), false);
  EXPECT_LE(cost.round_trips, 2) << round_trip_listing(cost);
}

// The agent's count is read under its lock with the lookup, so a new contact and its count go
// with the COMMIT.
TEST_F(ContactRoundTripsTest, AnUpsertThatCreatesTakesTwoRoundTrips) {
  upsert(person("u-1", "ann@example.com", "Ann"), true);  // the connection prepares
  auto cost = upsert(person("u-2", "bob@example.com", "Bob"), true);
  EXPECT_LE(cost.round_trips, 2) << round_trip_listing(cost);
}

}  // namespace
}  // namespace parley
