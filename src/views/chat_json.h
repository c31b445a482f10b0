// The Chat reply as JSON (spec section 2), shared by the API's chat endpoint and the widget's
// messages endpoint so both answer with the same fields. Stateless.
#pragma once

#include "core/json.h"
#include "domain/chat.h"

namespace parley {

void write_chat_reply_json(JsonWriter& w, const ChatReply& r);
// The reply's blocks as fields of the object being written: sources, followUps, buttons,
// products, form, leadForm, booking, liveChat (the JSON reply's fields after sessionId).
void write_reply_block_fields(JsonWriter& w, const ChatReply& r);

// The reply's `form`, `leadForm` and `booking` objects.
void write_form_json(JsonWriter& w, const FormBlock& form);
void write_lead_form_json(JsonWriter& w, const LeadFormBlock& lead_form);
void write_booking_json(JsonWriter& w, const BookingBlock& booking);

}  // namespace parley
