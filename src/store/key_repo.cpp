#include "store/key_repo.h"
#include "store/entity_changes.h"

namespace parley {

namespace {
#define KEY_COLUMNS \
  "id, account_id, name, prefix, fingerprint, all_scopes, scopes, created_by, created_at, last_used_at, revoked_at"

ApiKeyRecord read_key(const Row& r) {
  ApiKeyRecord k;
  k.id = r.text(0);
  k.account_id = r.text(1);
  k.name = r.text(2);
  k.prefix = r.text(3);
  k.fingerprint = r.text(4);
  k.all_scopes = r.boolean(5);
  k.scopes = parse_scope_list(r.text_view(6)).value_or(0);
  k.created_by = r.opt_text(7);
  k.created_at = r.int64(8);
  k.last_used_at = r.opt_int64(9);
  k.revoked_at = r.opt_int64(10);
  return k;
}
}  // namespace

Result<void> KeyRepo::insert(Connection& c, const ApiKeyRecord& k) {
  PARLEY_TRY(c.execute(
      "INSERT INTO api_keys (" KEY_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
      {k.id, k.account_id, k.name, k.prefix, k.fingerprint, int64_t{k.all_scopes},
       k.all_scopes ? std::string() : scope_list(k.scopes), db_opt(k.created_by), k.created_at,
       db_opt(k.last_used_at), db_opt(k.revoked_at)}));
  record_change(c, Entity::kKey, k.id);
  return {};
}

Result<bool> KeyRepo::insert_within_cap(Connection& c, const ApiKeyRecord& k, int64_t cap) {
  // Counted after the account's row is held: a concurrent insert either committed before (and
  // is counted) or waits for this transaction to end.
  PARLEY_ASSIGN_OR_RETURN(bool account, c.lock_row("accounts", k.account_id));
  if (!account) return false;
  PARLEY_ASSIGN_OR_RETURN(int64_t active, count_active(c, k.account_id));
  if (active >= cap) return false;
  PARLEY_TRY(insert(c, k));
  return true;
}

Result<std::optional<ApiKeyRecord>> KeyRepo::find(Connection& c, std::string_view id) {
  std::optional<ApiKeyRecord> out;
  PARLEY_TRY(c.query("SELECT " KEY_COLUMNS " FROM api_keys WHERE id = $1", {id},
                     [&](const Row& r) { out = read_key(r); }));
  return out;
}

Result<std::vector<ApiKeyRecord>> KeyRepo::list(Connection& c, std::string_view account_id,
                                                bool include_revoked) {
  std::vector<ApiKeyRecord> out;
  PARLEY_TRY(c.query("SELECT " KEY_COLUMNS " FROM api_keys WHERE account_id = $1 AND ($2 = 1 OR revoked_at IS NULL)"
                     " ORDER BY created_at DESC, id DESC",
                     {account_id, int64_t{include_revoked}}, [&](const Row& r) { out.push_back(read_key(r)); }));
  return out;
}

Result<int64_t> KeyRepo::count_active(Connection& c, std::string_view account_id) {
  PARLEY_ASSIGN_OR_RETURN(auto n, c.query_int("SELECT COUNT(*) FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL",
                                              {account_id}));
  return n.value_or(0);
}

Result<std::vector<ApiKeyRecord>> KeyRepo::all_active(Connection& c) {
  std::vector<ApiKeyRecord> out;
  PARLEY_TRY(c.query("SELECT " KEY_COLUMNS " FROM api_keys WHERE revoked_at IS NULL", {},
                     [&](const Row& r) { out.push_back(read_key(r)); }));
  return out;
}

Result<bool> KeyRepo::active_fingerprint(Connection& c, std::string_view fingerprint) {
  bool found = false;
  PARLEY_TRY(c.query("SELECT 1 FROM api_keys WHERE fingerprint = $1 AND revoked_at IS NULL", {fingerprint},
                     [&](const Row&) { found = true; }));
  return found;
}

Result<bool> KeyRepo::revoke(Connection& c, std::string_view id, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                                               {id, now}));
  if (n > 0) record_change(c, Entity::kKey, id);
  return n > 0;
}

Result<void> KeyRepo::touch(Connection& c, std::string_view id, int64_t last_used_at) {
  PARLEY_TRY(c.execute("UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)",
                       {id, last_used_at}));
  return {};
}

}  // namespace parley
