// API keys as stored: a SHA-256 fingerprint and a display prefix, never the key itself.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/scopes.h"
#include "store/db.h"

namespace parley {

struct ApiKeyRecord {
  std::string id;
  std::string account_id;
  std::string name;
  std::string prefix;
  std::string fingerprint;
  bool all_scopes = false;
  ScopeMask scopes = 0;
  std::optional<std::string> created_by;
  int64_t created_at = 0;
  std::optional<int64_t> last_used_at;
  std::optional<int64_t> revoked_at;
};

class KeyRepo {
 public:
  static Result<void> insert(Connection& c, const ApiKeyRecord& k);
  static Result<std::optional<ApiKeyRecord>> find(Connection& c, std::string_view id);
  // Newest first; revoked keys included when asked.
  static Result<std::vector<ApiKeyRecord>> list(Connection& c, std::string_view account_id,
                                                bool include_revoked);
  // Inserts the key unless its account already has `cap` active keys: false then, and nothing
  // is inserted. The account's row is locked first, so concurrent inserts are counted in turn.
  static Result<bool> insert_within_cap(Connection& c, const ApiKeyRecord& k, int64_t cap);
  static Result<int64_t> count_active(Connection& c, std::string_view account_id);
  // Every active key of every account (to fill the in-memory auth cache).
  static Result<std::vector<ApiKeyRecord>> all_active(Connection& c);
  // Whether an active key has this fingerprint (hex SHA-256 of the whole key).
  static Result<bool> active_fingerprint(Connection& c, std::string_view fingerprint);
  // Returns false when the key does not exist or was already revoked.
  static Result<bool> revoke(Connection& c, std::string_view id, int64_t now);
  static Result<void> touch(Connection& c, std::string_view id, int64_t last_used_at);
};

}  // namespace parley
