// Events rebuilt from stored records: an agent's latest events of a kind (list events, samples)
// and the body of one event by its id (the delivery worker fans out outbox rows with it).
// Stateless; runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "events/event_body.h"

namespace parley {

// Event records as serialised JSON objects, newest first.
Result<std::vector<std::string>> latest_events(Connection& c, const EventAgent& agent,
                                               EventKind kind, int64_t limit);

// The body of the event with this id, or nothing when its record no longer exists.
Result<std::optional<std::string>> event_body(Connection& c, const EventAgent& agent,
                                              EventKind kind, std::string_view event_id);

}  // namespace parley
