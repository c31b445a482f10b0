// JSON shapes of the console: accounts, API keys as each role may see them, agents with their
// settings. Stateless.
#pragma once

#include <string_view>

#include "core/json.h"
#include "domain/members.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/key_repo.h"

namespace parley {

// {id, name, plan, limits: {apiAccess, messagesPerMonth, trainingCharacters, contactsPerAgent,
//  crawlPages},
//  createdAt, updatedAt}
void write_console_account_json(JsonWriter& w, const Account& a);
// Owners and admins see {id, name, prefix, allScopes, scopes, createdBy, createdAt, lastUsedAt};
// editors and viewers only {name, prefix, allScopes, scopes, createdAt, lastUsedAt}.
// `plaintext` adds "key" (only in the creation response).
void write_console_key_json(JsonWriter& w, const ApiKeyRecord& k, Role seen_by, std::string_view plaintext = {});
// The Agent resource plus "settings".
void write_console_agent_json(JsonWriter& w, const AgentRecord& a);

}  // namespace parley
