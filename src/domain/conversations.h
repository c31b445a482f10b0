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

// The same with only the messages after seq `after` (a live stream's cursor): the messages are
// read only when the conversation's count says there are any (a message's seq is the count when
// it was appended).
Result<ConversationWithMessages> get_conversation_since(Connection& c, std::string_view account_id,
                                                        std::string_view conversation_id,
                                                        int64_t after);

}  // namespace parley
