// JSON of an API key (never its secret, which appears only in the creation response), as each
// reader may see it: the operator's CLI, a console owner or admin, or any other team member.
// Stateless.
#pragma once

#include <string_view>

#include "core/json.h"
#include "store/key_repo.h"

namespace parley {

enum class KeyAudience {
  kOperator,        // {id, accountId, name, prefix, allScopes, scopes, createdAt, lastUsedAt, revokedAt}
  kConsoleManager,  // {id, name, prefix, allScopes, scopes, createdBy, createdAt, lastUsedAt}
  kConsoleMember,   // {name, prefix, allScopes, scopes, createdAt, lastUsedAt}
};

// `plaintext` adds "key" (only in the creation response).
void write_key_json(JsonWriter& w, const ApiKeyRecord& k, KeyAudience audience, std::string_view plaintext = {});

}  // namespace parley
