#include "console/console_json.h"

#include "domain/accounts.h"
#include "domain/agents.h"
#include "views/account_json.h"
#include "views/agent_json.h"
#include "views/key_json.h"

namespace parley {

void write_console_account_json(JsonWriter& w, const Account& a) { write_account_json(w, a); }

void write_console_key_json(JsonWriter& w, const ApiKeyRecord& k, Role seen_by, std::string_view plaintext) {
  auto audience = role_at_least(seen_by, Role::kAdmin) ? KeyAudience::kConsoleManager : KeyAudience::kConsoleMember;
  write_key_json(w, k, audience, plaintext);
}

void write_console_agent_json(JsonWriter& w, const AgentRecord& a) {
  write_agent_json(w, a, AgentAudience::kConsole);
}

}  // namespace parley
