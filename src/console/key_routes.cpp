// GET, POST /console/v1/keys and DELETE /console/v1/keys/{keyId}: the account's API keys. The
// life cycle is domain/keys.h's (shared with the admin CLI); this file only checks input and
// shapes what each role may see.
#include "console/console_json.h"
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "domain/keys.h"
#include "http/responses.h"

namespace parley {

namespace {
// Either {"allScopes": true} (returned as no mask: every scope, future ones included) or
// {"scopes": [names...]}; neither is a 400, so a key never gets every scope by omission.
Result<std::optional<ScopeMask>> requested_scopes(const FieldReader& f) {
  PARLEY_ASSIGN_OR_RETURN(auto all, f.optional_bool("allScopes"));
  const rapidjson::Value* list = f.get("scopes");
  bool has_list = list != nullptr && !list->IsNull();
  if (all.value_or(false)) {
    if (has_list) return ApiError::invalid("Send either 'allScopes': true or 'scopes', not both.");
    return std::optional<ScopeMask>();
  }
  if (!has_list) return ApiError::invalid("'scopes' is required unless 'allScopes' is true.");
  if (!list->IsArray()) return ApiError::invalid("'scopes' must be an array of scope names.");
  if (list->Empty()) return ApiError::invalid("'scopes' must name at least one scope.");
  ScopeMask m = 0;
  for (const auto& v : list->GetArray()) {
    if (!v.IsString()) return ApiError::invalid("'scopes' must be an array of scope names.");
    std::string_view name(v.GetString(), v.GetStringLength());
    auto scope = parse_scope(name);
    if (!scope) {
      std::string known;
      for (auto n : all_scope_names()) known += (known.empty() ? "" : ", ") + std::string(n);
      return ApiError::invalid("Unknown scope '" + std::string(name) +
                               "' in 'scopes'. Scopes: " + known + ".");
    }
    m |= mask(*scope);
  }
  return std::optional<ScopeMask>(m);
}

Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto keys, list_api_keys(call.services, call.account_id()));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& k : keys)
    if (!k.revoked_at) write_console_key_json(w, k, call.who.role);
  w.end_array().end_object();
  return json_response(200, w);
}

Result<Response> create(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  PARLEY_ASSIGN_OR_RETURN(std::string name, f.required_string("name"));
  PARLEY_ASSIGN_OR_RETURN(auto scopes, requested_scopes(f));
  PARLEY_ASSIGN_OR_RETURN(auto created, create_api_key(call.services, call.account_id(), name,
                                                       scopes, call.who.member.id));
  JsonWriter w;
  w.begin_object().key("data");
  write_console_key_json(w, created.record, call.who.role, created.plaintext);
  w.end_object();
  Response r = json_response(201, w);
  r.header("Cache-Control", "no-store");
  return r;
}

Result<Response> revoke(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto key,
                          revoke_api_key(call.services, call.param(0), call.account_id()));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("id").string(key.id);
  w.key("revoked").boolean(true);
  w.key("revokedAt").timestamp_or_null(key.revoked_at);
  w.end_object().end_object();
  return json_response(200, w);
}
}  // namespace

void register_console_key_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/keys", Role::kViewer, Execution::kPool, list);
  add_console_route(router, app, "POST", "/console/v1/keys", Role::kAdmin, Execution::kPool, create,
                    {.rule = {"key.create", "key", audit_key_snapshot},
                     .target = ConsoleAudit::Target::kCreated});
  add_console_route(router, app, "DELETE", "/console/v1/keys/{keyId}", Role::kAdmin,
                    Execution::kPool, revoke, {.rule = {"key.revoke", "key", audit_key_snapshot}});
}

}  // namespace parley
