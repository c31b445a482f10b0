// The outbox: every record that is a webhook event (lead.created, handoff.requested, ...) is
// added here in the same transaction that stores the record, so that an event is delivered if
// and only if its record was committed. The delivery worker reads it.
#pragma once

#include <string>
#include <string_view>

#include "core/random.h"
#include "store/db.h"

namespace parley {

struct OutboxEvent {
  std::string account_id;
  std::string agent_id;
  std::string event;     // "lead.created", "handoff.requested", ...
  std::string event_id;  // the event's id: the record id, or "cnv_…:<ms>" for hand-offs and live chats
  int64_t created_at = 0;
};

// Adds the event inside the caller's write transaction.
Result<void> add_to_outbox(Connection& c, Random& random, const OutboxEvent& e);

}  // namespace parley
