// Conversations as the data API shows them: the Conversation summary (list item) and the
// Conversation with its messages, shared by the fronts. Stateless.
#pragma once

#include "core/json.h"
#include "domain/conversations.h"

namespace parley {

void write_conversation_summary_json(JsonWriter& w, const ConversationRecord& c);
void write_conversation_json(JsonWriter& w, const ConversationWithMessages& c);
void write_message_json(JsonWriter& w, const MessageRecord& m);

}  // namespace parley
