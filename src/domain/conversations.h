// Conversations as the data API reads them: a conversation with its messages (views/
// conversation_json.h writes them). Knows no HTTP; reads run on the caller's connection.
#pragma once

#include <string_view>
#include <vector>

#include "store/conversation_repo.h"

namespace parley {

struct ConversationWithMessages {
  ConversationRecord conversation;
  std::vector<MessageRecord> messages;
};

// The account's conversation (any of its agents) with its transcript; 404 otherwise.
Result<ConversationWithMessages> get_conversation(Connection& c, std::string_view account_id,
                                                  std::string_view conversation_id);

// The most messages a conversation stores unless the server is told otherwise
// (--max-messages-per-conversation). What the agent sees is the last 40 of them.
inline constexpr int64_t kDefaultMaxMessagesPerConversation = 10'000;

// 409 conflict when `adding` more messages would take the conversation past `cap` (its message
// count is read with it): a full conversation takes no more; the client starts a new one.
Result<void> check_message_room(const ConversationRecord& conv, int64_t adding, int64_t cap);

// The same with only the messages after seq `after` (a live stream's cursor): the messages are
// read only when the conversation's count says there are any (a message's seq is the count when
// it was appended).
Result<ConversationWithMessages> get_conversation_since(Connection& c, std::string_view account_id,
                                                        std::string_view conversation_id,
                                                        int64_t after);

}  // namespace parley
