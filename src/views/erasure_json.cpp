#include "views/erasure_json.h"

namespace parley {

void write_erasure_json(JsonWriter& w, const ErasureReport& r) {
  const ErasureCounts& n = r.removed;
  w.begin_object();
  w.key("contactId").string(r.contact_id);
  w.key("agentId").string(r.agent_id);
  w.key("erased").boolean(true);
  w.key("removed").begin_object();
  w.key("contacts").integer(n.contacts);
  w.key("leads").integer(n.leads);
  w.key("conversations").integer(n.conversations.conversations);
  w.key("messages").integer(n.conversations.messages);
  w.key("events").integer(n.conversations.events + n.events);
  w.key("webhookDeliveries").integer(n.conversations.deliveries + n.deliveries);
  w.key("formSubmissions").integer(n.form_submissions);
  w.key("bookings").integer(n.bookings);
  w.key("returnRequests").integer(n.return_requests);
  w.key("idempotencyKeys").integer(n.idempotency_keys);
  w.end_object();
  w.end_object();
}

}  // namespace parley
