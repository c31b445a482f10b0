// JSON of conversations and their messages (the spec's Conversation resource and its list item),
// shared by the fronts and the admin CLI. Stateless.
#pragma once

#include "core/json.h"
#include "domain/conversations.h"

namespace parley {

void write_conversation_summary_json(JsonWriter& w, const ConversationRecord& c);

void write_message_json(JsonWriter& w, const MessageRecord& m);

void write_conversation_json(JsonWriter& w, const ConversationWithMessages& c);

// The visitor's widget identity: {status, externalId, contactId}; status "anonymous" when none
// was given (domain/widget_identity.h lists the others).
void write_identity_json(JsonWriter& w, const ConversationRecord& c);

}  // namespace parley
