#include "views/agent_json.h"

#include "domain/agent_settings.h"

namespace parley {

void write_agent_json(JsonWriter& w, const AgentRecord& a, AgentAudience audience) {
  w.begin_object();
  w.key("id").string(a.id);
  w.key("name").string(a.name);
  w.key("private").boolean(a.is_private);
  w.key("status").string(a.status);
  w.key("trainedAt").timestamp_or_null(a.trained_at);
  w.key("characters").integer(a.characters);
  w.key("counts").begin_object();
  w.key("conversations").integer(a.conversations_count);
  w.key("messages").integer(a.messages_count);
  w.key("leads").integer(a.leads_count);
  w.key("sources").integer(a.sources_count);
  w.end_object();
  w.key("createdAt").timestamp(a.created_at);
  w.key("updatedAt").timestamp(a.updated_at);
  if (audience == AgentAudience::kOperator) w.key("accountId").string(a.account_id);
  if (audience != AgentAudience::kApi) w.key("settings").raw(redact_agent_settings(a.settings));
  if (audience != AgentAudience::kApi) {
    // Whether the widget identity secret is set and since when; never the secret.
    w.key("identitySecret").begin_object();
    w.key("set").boolean(a.identity_secret_sealed.has_value());
    w.key("createdAt").timestamp_or_null(a.identity_secret_at);
    w.end_object();
  }
  w.end_object();
}

}  // namespace parley
