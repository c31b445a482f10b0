// Erasing one person (a contact) from an agent's records: every row that holds them or that they
// wrote, found by the contact's id, email and phone. What "every row" is, table by table, and why,
// is in docs/decisions/records.md. Stateless; runs inside the caller's write transaction.
#pragma once

#include <cstdint>
#include <string>

#include "store/contact_repo.h"
#include "store/conversation_purge.h"
#include "store/db.h"

namespace parley {

// How many rows of each kind an erasure removed.
struct ErasureCounts {
  int64_t contacts = 0;
  int64_t leads = 0;
  PurgeCounts conversations;  // conversations, their messages, events and deliveries
  int64_t events = 0;         // other events (the leads' and records')
  int64_t deliveries = 0;     // other deliveries (of those events, or whose body holds the email)
  int64_t form_submissions = 0;
  int64_t bookings = 0;
  int64_t return_requests = 0;
  int64_t idempotency_keys = 0;
};

class ErasureRepo {
 public:
  // Deletes the contact and every row of its agent (and, for stored API answers, its account)
  // that holds it: its leads (same email or phone), the conversations bound to it, linked from
  // those leads or records, or whose messages, rating comment or page hold its email, with what
  // hangs off them; its form submissions, bookings and return requests; the events and webhook
  // deliveries of all of these and any delivery whose body holds the email; stored idempotent
  // answers that hold the email.
  static Result<ErasureCounts> erase(Connection& c, const ContactRecord& contact);
  // The account of a contact given by id alone (operator tools), or nothing.
  static Result<std::optional<std::string>> account_of(Connection& c, std::string_view contact_id);
};

// After an erasure: makes sure the bytes of deleted rows are gone from the database's files, not
// only from its tables. SQLite overwrites deleted content as it deletes (every connection runs
// with secure_delete on) and this truncates the write-ahead log, whose old frames still hold rows
// as they were; 503 unavailable when readers kept it busy past the busy timeout. PostgreSQL:
// nothing (a deleted row is no longer readable; VACUUM reclaims its space).
Result<void> scrub_database_files(Database& db);

// `text` lower-cased (ASCII) as a LIKE pattern matching any text that contains it, with the
// pattern's own characters escaped by '\' (the statements say ESCAPE '\').
std::string contains_pattern(std::string_view text);

}  // namespace parley
