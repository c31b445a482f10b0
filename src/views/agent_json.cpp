#include "views/agent_json.h"

namespace parley {

void write_agent_json(JsonWriter& w, const AgentRecord& a) {
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
  w.end_object();
}

}  // namespace parley
