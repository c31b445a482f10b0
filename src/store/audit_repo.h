// The audit log as stored: one hash chain of entries per account (migration 0045). append() takes
// the chain's row (an UPDATE, so concurrent writers on every node queue on it), links the entry to
// the chain's last hash and moves the chain on, all in the caller's write transaction. The hash
// is SHA-256 over the entry's fields and the previous hash (audit_entry_hash). Stateless; every
// function runs on the connection it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct AuditRecord {
  std::string id;
  std::string account_id;
  int64_t seq = 0;
  int64_t created_at = 0;
  std::string actor_type;  // member, key, cli
  std::optional<std::string> actor_id;
  std::string actor_name;
  std::optional<std::string> address;
  std::string action;  // e.g. agent.update
  std::string target_type;
  std::optional<std::string> target_id;
  std::string changes = "[]";          // JSON array of {field, old, new}
  std::optional<std::string> details;  // JSON object, for actions without fields (an export)
  std::string prev_hash;
  std::string hash;
};

struct AuditChain {
  std::string account_id;
  int64_t last_seq = 0;
  std::string last_hash;
  int64_t purged_seq = 0;
  std::string purged_hash;
};

// What a list keeps; empty fields keep everything.
struct AuditFilter {
  std::string account_id;
  std::optional<std::string> actor_id;
  std::optional<std::string> action;  // exact, or a prefix ending in '.' ("agent.")
  std::optional<std::string> target_type;
  std::optional<std::string> target_id;
  std::optional<int64_t> from;        // created_at >= from
  std::optional<int64_t> to;          // created_at < to
  std::optional<int64_t> before_seq;  // the page's cursor: seq < before_seq
  int64_t limit = 50;
};

// The hash before a chain's first entry.
inline constexpr std::string_view kAuditGenesisHash =
    "0000000000000000000000000000000000000000000000000000000000000000";

// SHA-256 (hex) of the entry's fields and its prev_hash, each length-prefixed.
std::string audit_entry_hash(const AuditRecord& r);

class AuditRepo {
 public:
  // Holds the account's chain (its row, made when missing) until the transaction ends: taken
  // before a change's "before" is read, so that on PostgreSQL (READ COMMITTED) two audited
  // changes of one account run one after the other and each reads what the other wrote.
  static Result<void> hold_chain(Connection& c, std::string_view account_id);
  // Sets r.seq, r.prev_hash and r.hash and inserts the entry at the end of its account's chain.
  static Result<void> append(Connection& c, AuditRecord& r);
  // Newest first; at most filter.limit + 1 rows (one more tells that there is a next page).
  static Result<std::vector<AuditRecord>> list(Connection& c, const AuditFilter& filter);
  // Every chain, or the one of `account_id`.
  static Result<std::vector<AuditChain>> chains(Connection& c,
                                                const std::optional<std::string>& account_id);
  // The chain's entries with seq > after_seq, oldest first, at most `limit`.
  static Result<std::vector<AuditRecord>> scan(Connection& c, std::string_view account_id,
                                               int64_t after_seq, int64_t limit);
  // Accounts that have entries but no chain row (a deleted chain row).
  static Result<std::vector<std::string>> accounts_without_chain(Connection& c);
  // Deletes up to `limit` of the chain's oldest entries created before `before`, and moves its
  // checkpoint to the last one deleted. Returns how many were deleted.
  static Result<int64_t> purge(Connection& c, std::string_view account_id, int64_t before,
                               int64_t limit);
};

}  // namespace parley
