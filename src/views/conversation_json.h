// JSON of conversations and their messages (the spec's Conversation resource and its list item),
// shared by the fronts and the admin CLI. Stateless.
#pragma once

#include "core/json.h"
#include "domain/conversations.h"
#include "store/inbox_queries.h"

namespace parley {

void write_conversation_summary_json(JsonWriter& w, const ConversationRecord& c);

// The summary with the console inbox's `visitor` {name, email} or null, `preview` (the first
// visitor question) and `badges` {unanswered, handedOff, ratedLow}.
void write_inbox_row_json(JsonWriter& w, const InboxRow& row);

// With the support loop's `outcome`, `confidence`, `rating` and `ratedAt` (null where none).
void write_message_json(JsonWriter& w, const MessageRecord& m);

void write_conversation_json(JsonWriter& w, const ConversationWithMessages& c);

// The visitor's widget identity: {status, externalId, contactId}; status "anonymous" when none
// was given (domain/widget_identity.h lists the others).
void write_identity_json(JsonWriter& w, const ConversationRecord& c);

}  // namespace parley
