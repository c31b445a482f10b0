#include "cli/admin_json.h"

#include "domain/accounts.h"
#include "domain/agents.h"
#include "views/account_json.h"
#include "views/agent_json.h"
#include "views/key_json.h"

namespace parley {

void write_account_admin_json(JsonWriter& w, const Account& a) { write_account_json(w, a); }

void write_key_admin_json(JsonWriter& w, const ApiKeyRecord& k, std::string_view plaintext) {
  write_key_json(w, k, KeyAudience::kOperator, plaintext);
}

void write_agent_admin_json(JsonWriter& w, const AgentRecord& a) {
  write_agent_json(w, a, AgentAudience::kOperator);
}

}  // namespace parley
