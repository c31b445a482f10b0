// JSON shapes the admin CLI prints for accounts, keys and agents.
#pragma once

#include "core/json.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/key_repo.h"

namespace parley {

void write_account_admin_json(JsonWriter& w, const Account& a);
// The key without its secret; `plaintext` adds "key" (only right after creation).
void write_key_admin_json(JsonWriter& w, const ApiKeyRecord& k, std::string_view plaintext = {});
// The Agent resource plus accountId and settings.
void write_agent_admin_json(JsonWriter& w, const AgentRecord& a);

}  // namespace parley
