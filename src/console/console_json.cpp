#include "console/console_json.h"

#include "domain/accounts.h"
#include "domain/agent_settings.h"
#include "domain/agents.h"
#include "views/account_json.h"
#include "views/agent_json.h"

namespace parley {

void write_console_account_json(JsonWriter& w, const Account& a) { write_account_json(w, a); }

void write_console_key_json(JsonWriter& w, const ApiKeyRecord& k, Role seen_by, std::string_view plaintext) {
  bool manager = role_at_least(seen_by, Role::kAdmin);
  w.begin_object();
  if (manager) w.key("id").string(k.id);
  w.key("name").string(k.name);
  w.key("prefix").string(k.prefix);
  w.key("allScopes").boolean(k.all_scopes);
  w.key("scopes").begin_array();
  for (auto s : k.all_scopes ? all_scope_names() : scope_names(k.scopes)) w.string(s);
  w.end_array();
  if (manager) w.key("createdBy").string_or_null(k.created_by);
  w.key("createdAt").timestamp(k.created_at);
  w.key("lastUsedAt").timestamp_or_null(k.last_used_at);
  if (!plaintext.empty()) w.key("key").string(plaintext);
  w.end_object();
}

void write_console_agent_json(JsonWriter& w, const AgentRecord& a) {
  // The Agent resource, then the settings, in one object.
  JsonWriter inner;
  write_agent_json(inner, a);
  std::string s = inner.str();
  s.pop_back();
  s += ",\"settings\":";
  s += redact_agent_settings(a.settings);
  s += '}';
  w.raw(s);
}

}  // namespace parley
