// A team member taking over a conversation: while taken over, chat messages are saved without a
// reply (liveChat "paused"), and the member's replies are assistant messages with authorName.
// Operator entry points (admin CLI) until the console exists; any account's conversation.
#pragma once

#include <string_view>

#include "store/services.h"
#include "domain/conversations.h"
#include "store/conversation_repo.h"

namespace parley {

// Marks the conversation as taken over by `member` (live chat active from now).
Result<ConversationRecord> take_over_conversation(Services& s, std::string_view conversation_id,
                                                  std::string_view member);
// Appends the member's reply; 400 when the conversation is not taken over.
// 409 when the conversation already holds `max_messages`.
Result<MessageRecord> team_reply(Services& s, std::string_view conversation_id,
                                 std::string_view member, std::string_view text,
                                 int64_t max_messages = kDefaultMaxMessagesPerConversation);
// Hands the conversation back to the agent (live chat ended now).
Result<ConversationRecord> release_conversation(Services& s, std::string_view conversation_id);

}  // namespace parley
