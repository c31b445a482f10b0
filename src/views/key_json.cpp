#include "views/key_json.h"

#include "model/scopes.h"

namespace parley {

void write_key_json(JsonWriter& w, const ApiKeyRecord& k, KeyAudience audience, std::string_view plaintext) {
  const bool operator_view = audience == KeyAudience::kOperator;
  const bool manager_view = audience == KeyAudience::kConsoleManager;
  w.begin_object();
  if (operator_view || manager_view) w.key("id").string(k.id);
  if (operator_view) w.key("accountId").string(k.account_id);
  w.key("name").string(k.name);
  w.key("prefix").string(k.prefix);
  w.key("allScopes").boolean(k.all_scopes);
  w.key("scopes").begin_array();
  for (auto s : k.all_scopes ? all_scope_names() : scope_names(k.scopes)) w.string(s);
  w.end_array();
  if (manager_view) w.key("createdBy").string_or_null(k.created_by);
  w.key("createdAt").timestamp(k.created_at);
  w.key("lastUsedAt").timestamp_or_null(k.last_used_at);
  if (operator_view) w.key("revokedAt").timestamp_or_null(k.revoked_at);
  if (!plaintext.empty()) w.key("key").string(plaintext);
  w.end_object();
}

}  // namespace parley
