#include "domain/keys.h"

#include "core/crypto.h"
#include "core/json.h"
#include "core/random.h"
#include "store/account_repo.h"
#include "store/webhook_repo.h"

namespace parley {

Result<CreatedKey> create_api_key(Services& s, std::string_view account_id, std::string_view name,
                                  std::optional<ScopeMask> scopes, std::optional<std::string> created_by) {
  if (name.empty() || utf8_length(name) > 100) return ApiError::invalid("'name' must be 1 to 100 characters.");
  if (scopes && *scopes == 0) return ApiError::invalid("'scopes' must name at least one scope.");
  CreatedKey out;
  out.plaintext = "svc_live_" + random_base62(s.random, 32);
  ApiKeyRecord& k = out.record;
  k.id = new_id(s.random, "key_");
  k.account_id = std::string(account_id);
  k.name = std::string(name);
  k.prefix = out.plaintext.substr(0, 12);
  k.fingerprint = sha256_hex(out.plaintext);
  k.all_scopes = !scopes.has_value();
  k.scopes = scopes.value_or(0);
  k.created_by = std::move(created_by);
  k.created_at = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, account_id));
    if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
    if (!effective_limits(account->plan, account->overrides).api_access) {
      return ApiError{ErrorCode::kPlanRequired, "API keys cannot be created on the Free plan."};
    }
    PARLEY_ASSIGN_OR_RETURN(bool inserted, KeyRepo::insert_within_cap(c, k, kMaxActiveKeys));
    if (!inserted) {
      return ApiError{ErrorCode::kKeyLimitReached,
                      "An account can have at most 20 active API keys; revoke one first."};
    }
    return {};
  }));
  return out;
}

Result<std::vector<ApiKeyRecord>> list_api_keys(Services& s, std::string_view account_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, account_id));
  if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
  return KeyRepo::list(c, account_id, true);
}

Result<ApiKeyRecord> revoke_api_key(Services& s, std::string_view key_id, std::string_view account_id) {
  std::optional<ApiKeyRecord> key;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(key, KeyRepo::find(c, key_id));
    if (!key || (!account_id.empty() && key->account_id != account_id)) {
      return ApiError::not_found("No API key " + std::string(key_id) + ".");
    }
    if (key->revoked_at) return ApiError::invalid("API key " + std::string(key_id) + " is already revoked.");
    int64_t now = s.clock.now_ms();
    PARLEY_TRY(KeyRepo::revoke(c, key_id, now));
    PARLEY_TRY(WebhookRepo::remove_by_key(c, key_id));
    key->revoked_at = now;
    return {};
  }));
  return std::move(*key);
}

}  // namespace parley
