#include "views/contact_json.h"

namespace parley {

void write_contact_json(JsonWriter& w, const ContactRecord& c) {
  w.begin_object();
  w.key("id").string(c.id);
  w.key("agentId").string(c.agent_id);
  w.key("externalId").string_or_null(c.external_id);
  w.key("email").string_or_null(c.email);
  w.key("phone").string_or_null(c.phone);
  w.key("name").string_or_null(c.name);
  w.key("attributes").raw(c.attributes);
  w.key("source").string(c.source);
  w.key("firstSeenAt").timestamp(c.first_seen_at);
  w.key("lastSeenAt").timestamp(c.last_seen_at);
  w.key("createdAt").timestamp(c.created_at);
  w.key("updatedAt").timestamp(c.updated_at);
  w.end_object();
}

}  // namespace parley
