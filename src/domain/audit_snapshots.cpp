#include "domain/audit_snapshots.h"

#include "core/crypto.h"
#include "core/json.h"
#include "domain/agent_settings.h"
#include "model/plans.h"
#include "model/scopes.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"
#include "store/key_repo.h"
#include "store/member_repo.h"
#include "store/source_repo.h"
#include "store/webhook_repo.h"
#include "store/workspace_repo.h"

namespace parley {

namespace {
std::string str(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}
std::string opt_str(const std::optional<std::string>& s) { return s ? str(*s) : "null"; }
std::string boolean(bool b) { return b ? "true" : "false"; }
std::string stamp(const std::optional<int64_t>& ms) {
  if (!ms) return "null";
  JsonWriter w;
  w.timestamp(*ms);
  return w.str();
}
std::string strings(const std::vector<std::string_view>& items) {
  JsonWriter w;
  w.begin_array();
  for (auto s : items) w.string(s);
  w.end_array();
  return w.str();
}

// Objects become one field per member ("settings.llm.baseUrl"); arrays and scalars stay whole,
// taken from the redacted settings so that no secret inside an array is copied. A secret inside an
// array still shows as changed: its field `<name>.secrets` holds a digest of the raw array.
void flatten(const std::string& prefix, const rapidjson::Value& raw, const rapidjson::Value* shown,
             AuditSnapshot& out) {
  if (raw.IsObject()) {
    for (const auto& m : raw.GetObject()) {
      const std::string name = prefix + "." + m.name.GetString();
      const rapidjson::Value* s = nullptr;
      if (shown != nullptr && shown->IsObject()) {
        auto it = shown->FindMember(m.name);
        if (it != shown->MemberEnd()) s = &it->value;
      }
      flatten(name, m.value, s, out);
    }
    return;
  }
  const std::string raw_text = to_json(raw);
  if (raw.IsArray() && shown != nullptr) {
    const std::string shown_text = to_json(*shown);
    out[prefix] = shown_text;
    if (shown_text != raw_text) out[prefix + ".secrets"] = str(sha256_hex(raw_text));
    return;
  }
  out[prefix] = raw_text;
}
}  // namespace

Result<std::optional<AuditSnapshot>> audit_agent_snapshot(Connection& c, const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find(c, t.account_id, t.id));
  if (!a) return std::optional<AuditSnapshot>();
  AuditSnapshot s;
  s["name"] = str(a->name);
  s["private"] = boolean(a->is_private);
  // When the identity secret was made: a rotation is a change, the value never read.
  s["identitySecret"] = stamp(a->identity_secret_at);
  auto raw = parse_json_value(a->settings);
  auto shown = parse_json_value(redact_agent_settings(a->settings));
  if (raw.ok()) flatten("settings", *raw, shown.ok() ? &*shown : nullptr, s);
  return std::optional<AuditSnapshot>(std::move(s));
}

Result<std::optional<AuditSnapshot>> audit_account_snapshot(Connection& c,
                                                            const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto a, AccountRepo::find(c, t.account_id));
  if (!a) return std::optional<AuditSnapshot>();
  AuditSnapshot s;
  s["name"] = str(a->name);
  s["plan"] = str(plan_name(a->plan));
  s["limits"] = a->limits.empty() ? "null" : a->limits;
  s["timeZone"] = str(a->time_zone);
  s["retentionDays"] = a->retention_days ? std::to_string(*a->retention_days) : "null";
  return std::optional<AuditSnapshot>(std::move(s));
}

Result<std::optional<AuditSnapshot>> audit_key_snapshot(Connection& c, const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto k, KeyRepo::find(c, t.id));
  if (!k || k->account_id != t.account_id) return std::optional<AuditSnapshot>();
  AuditSnapshot s;
  s["name"] = str(k->name);
  s["allScopes"] = boolean(k->all_scopes);
  s["scopes"] = strings(scope_names(k->scopes));
  s["revokedAt"] = stamp(k->revoked_at);
  return std::optional<AuditSnapshot>(std::move(s));
}

Result<std::optional<AuditSnapshot>> audit_member_snapshot(Connection& c, const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto m, MemberRepo::find(c, t.id));
  if (!m || m->account_id != t.account_id) return std::optional<AuditSnapshot>();
  AuditSnapshot s;
  s["email"] = str(m->email);
  s["name"] = opt_str(m->name);
  s["role"] = str(m->role);
  return std::optional<AuditSnapshot>(std::move(s));
}

Result<std::optional<AuditSnapshot>> audit_source_snapshot(Connection& c, const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto src, SourceRepo::find(c, t.parent_id, t.id));
  if (!src || src->account_id != t.account_id) return std::optional<AuditSnapshot>();
  AuditSnapshot s;
  s["agentId"] = str(src->agent_id);
  s["type"] = str(src->type);
  s["title"] = opt_str(src->title);
  s["url"] = opt_str(src->url);
  s["filename"] = opt_str(src->filename);
  s["question"] = opt_str(src->question);
  s["answer"] = opt_str(src->answer);
  s["characters"] = std::to_string(src->characters);
  return std::optional<AuditSnapshot>(std::move(s));
}

Result<std::optional<AuditSnapshot>> audit_webhook_snapshot(Connection& c,
                                                            const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto w, WebhookRepo::find(c, t.account_id, t.id));
  if (!w) return std::optional<AuditSnapshot>();
  AuditSnapshot s;
  s["agentId"] = str(w->agent_id);
  s["url"] = str(w->url);
  std::vector<std::string_view> events(w->events.begin(), w->events.end());
  s["events"] = strings(events);
  s["source"] = str(w->source);
  s["paused"] = boolean(w->paused);
  s["disabledAt"] = stamp(w->disabled_at);
  return std::optional<AuditSnapshot>(std::move(s));
}

Result<std::optional<AuditSnapshot>> audit_conversation_snapshot(Connection& c,
                                                                 const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, t.account_id, t.id));
  if (!conv) return std::optional<AuditSnapshot>();
  AuditSnapshot s;
  s["liveChat"] = opt_str(conv->live_chat_status);
  s["takenOverBy"] = opt_str(conv->taken_over_by);
  return std::optional<AuditSnapshot>(std::move(s));
}

Result<std::optional<AuditSnapshot>> audit_workspace_snapshot(Connection& c,
                                                              const AuditTargetRef& t) {
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find(c, t.account_id, t.id));
  if (!agent) return std::optional<AuditSnapshot>();
  PARLEY_ASSIGN_OR_RETURN(auto w, WorkspaceRepo::connection(c, t.id));
  AuditSnapshot s;
  s["connected"] = boolean(w.has_value());
  s["workspaceName"] = w ? opt_str(w->workspace_name) : "null";
  s["connectedBy"] = w ? opt_str(w->connected_by) : "null";
  return std::optional<AuditSnapshot>(std::move(s));
}

}  // namespace parley
