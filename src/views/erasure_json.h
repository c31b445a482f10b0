// The report of an erasure (domain/erasure.h) as JSON: what the console and the admin CLI print.
#pragma once

#include "core/json.h"
#include "domain/erasure.h"

namespace parley {

// {contactId, agentId, erased: true, removed: {contacts, leads, conversations, messages, events,
// webhookDeliveries, formSubmissions, bookings, returnRequests, idempotencyKeys}}
void write_erasure_json(JsonWriter& w, const ErasureReport& r);

}  // namespace parley
