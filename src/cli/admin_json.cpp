#include "cli/admin_json.h"

#include "domain/accounts.h"
#include "domain/agent_settings.h"
#include "domain/agents.h"
#include "views/account_json.h"
#include "views/agent_json.h"

namespace parley {

void write_account_admin_json(JsonWriter& w, const Account& a) { write_account_json(w, a); }

void write_key_admin_json(JsonWriter& w, const ApiKeyRecord& k, std::string_view plaintext) {
  w.begin_object();
  w.key("id").string(k.id);
  w.key("accountId").string(k.account_id);
  w.key("name").string(k.name);
  w.key("prefix").string(k.prefix);
  w.key("allScopes").boolean(k.all_scopes);
  w.key("scopes").begin_array();
  for (auto s : k.all_scopes ? all_scope_names() : scope_names(k.scopes)) w.string(s);
  w.end_array();
  w.key("createdAt").timestamp(k.created_at);
  w.key("lastUsedAt").timestamp_or_null(k.last_used_at);
  w.key("revokedAt").timestamp_or_null(k.revoked_at);
  if (!plaintext.empty()) w.key("key").string(plaintext);
  w.end_object();
}

void write_agent_admin_json(JsonWriter& w, const AgentRecord& a) {
  // The Agent resource, then the operator-only fields, in one object.
  JsonWriter inner;
  write_agent_json(inner, a);
  std::string s = inner.str();
  s.pop_back();
  s += ",\"accountId\":";
  JsonWriter id;
  id.string(a.account_id);
  s += id.str();
  s += ",\"settings\":";
  s += redact_agent_settings(a.settings);
  s += '}';
  w.raw(s);
}

}  // namespace parley
