// Event records as the list-events API returns them and webhooks receive them: exactly
// {id, event, created_at, agent: {id, name}, data}. One builder per record kind, used by the
// events API, the samples and the delivery worker alike, so the three never differ.
// Stateless and thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "core/json.h"
#include "events/event_catalog.h"
#include "model/agent_settings.h"
#include "store/event_source_repo.h"
#include "store/record_repo.h"

namespace parley {

struct EventAgent {
  std::string id;
  std::string name;
  AgentSettings settings;  // for the current labels of form fields
};

void write_lead_event(JsonWriter& w, const EventAgent& agent, const LeadRecord& lead);
void write_form_event(JsonWriter& w, const EventAgent& agent, const FormSubmissionRecord& form);
void write_booking_event(JsonWriter& w, const EventAgent& agent, const BookingRecord& booking);
void write_return_event(JsonWriter& w, const EventAgent& agent, const ReturnRequestRecord& request);
// conversation.created, handoff.requested or live_chat.requested; `at` is the event's time (for
// hand-offs and live-chat requests the time in the event id).
void write_conversation_event(JsonWriter& w, const EventAgent& agent, EventKind kind,
                              const ConversationEventRow& conv, int64_t at);

// The id of a hand-off or live-chat request: the conversation id, a colon, the time in ms.
std::string conversation_event_id(std::string_view conversation_id, int64_t at_ms);
// Splits such an id; false when it has no valid time part.
bool split_conversation_event_id(std::string_view id, std::string& conversation_id, int64_t& at_ms);

// The documented example of an event (id "sample_…"), for samples when there is nothing to show.
void write_sample_event(JsonWriter& w, const EventAgent& agent, EventKind kind, int64_t now_ms);

}  // namespace parley
