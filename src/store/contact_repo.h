// Contacts: people an agent knows, one row per person per agent, unique by external id and by
// (lower-cased) email within the agent. Inserting and deleting keep the agent's contact count
// (contact_counts) in the same transaction, so the plan's allowance is checked without counting
// rows. Stateless; every function runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/db.h"
#include "store/keyset.h"

namespace parley {

struct ContactRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  std::optional<std::string> external_id;
  std::optional<std::string> email;
  std::optional<std::string> phone;
  std::optional<std::string> name;
  std::string attributes = "{}";  // JSON object
  std::string source = "api";     // "identity" | "lead" | "import" | "api"
  int64_t first_seen_at = 0;
  int64_t last_seen_at = 0;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

// Optional exact-match filters of the list (search for a single contact).
struct ContactFilter {
  std::optional<std::string> email;
  std::optional<std::string> external_id;
};

class ContactRepo {
 public:
  // Inserts the contact and counts it, without waiting (store/pipelined.h: with the transaction's
  // next statement waited for, or with COMMIT). For a caller that holds the agent's lock and read
  // its count under it (count_later) below its plan's allowance.
  static Result<void> insert_counted(Connection& c, const ContactRecord& contact);
  // Inserts every contact (all of one agent) unless together they would take the agent past `cap`
  // contacts: false then, and nothing is inserted. For bulk imports, under the agent's row lock.
  static Result<bool> insert_all_within_cap(Connection& c,
                                            const std::vector<ContactRecord>& contacts,
                                            int64_t cap);
  // The agent's contacts that hold any of `external_ids` or any of `emails` (each list at most
  // kMaxLookup long), in one statement: what a batch of an import may update.
  static constexpr size_t kMaxLookup = 500;
  static Result<std::vector<ContactRecord>> find_holding_any(
      Connection& c, std::string_view agent_id, const std::vector<std::string>& external_ids,
      const std::vector<std::string>& emails);
  // Holds the contact's row until the transaction ends: taken before a read-modify-write of it.
  static Result<bool> lock(Connection& c, std::string_view id);
  // Writes every mutable column, without waiting (store/pipelined.h execute_later): a failure
  // fails the transaction at its next statement that waits, or at COMMIT.
  static Result<void> update(Connection& c, const ContactRecord& contact);
  // Deletes the contact when it belongs to the account; false when there is none.
  static Result<bool> remove(Connection& c, std::string_view account_id, std::string_view id);
  static Result<std::optional<ContactRecord>> find(Connection& c, std::string_view account_id,
                                                   std::string_view id);
  static Result<std::optional<ContactRecord>> find_by_external_id(Connection& c,
                                                                  std::string_view agent_id,
                                                                  std::string_view external_id);
  static Result<std::optional<ContactRecord>> find_by_email(Connection& c,
                                                            std::string_view agent_id,
                                                            std::string_view email);
  // find_by_external_id and find_by_email in one statement (either may be nothing: not looked
  // up); the same contact may be both.
  struct Matches {
    std::optional<ContactRecord> by_external_id;
    std::optional<ContactRecord> by_email;
  };
  static Result<Matches> find_by_external_id_or_email(Connection& c, std::string_view agent_id,
                                                      const std::optional<std::string>& external_id,
                                                      const std::optional<std::string>& email);
  static Result<std::optional<ContactRecord>> find_by_phone(Connection& c,
                                                            std::string_view agent_id,
                                                            std::string_view phone);
  static Result<int64_t> count(Connection& c, std::string_view agent_id);
  // The agent's count, set when the answer comes back (as query_later; `count` must live until
  // then). Exact once the agent's row is locked: every insert of contacts (an upsert, an import,
  // the contacts made from leads) locks it first, and a removal meanwhile can only lower it.
  static Result<void> count_later(Connection& c, std::string_view agent_id, int64_t& count);
  // Newest first (created_at, id); `since` filters on updated_at.
  static Result<Page<ContactRecord>> list(Connection& c, std::string_view agent_id,
                                          const ContactFilter& filter, const PageQuery& q);
};

}  // namespace parley
