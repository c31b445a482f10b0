// API key life cycle shared by the admin CLI and the console: create (shown once), list, revoke.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/services.h"
#include "store/key_repo.h"

namespace parley {

inline constexpr int64_t kMaxActiveKeys = 20;

struct CreatedKey {
  ApiKeyRecord record;
  std::string plaintext;  // shown once, never stored
};

// `scopes` empty means every scope, present and future.
Result<CreatedKey> create_api_key(Services& s, std::string_view account_id, std::string_view name,
                                  std::optional<ScopeMask> scopes,
                                  std::optional<std::string> created_by = std::nullopt);
Result<std::vector<ApiKeyRecord>> list_api_keys(Services& s, std::string_view account_id);
// Irreversible; also deletes the webhooks the key subscribed (with their delivery history).
// `account_id` empty: any account (operator tools).
Result<ApiKeyRecord> revoke_api_key(Services& s, std::string_view key_id, std::string_view account_id = {});

}  // namespace parley
