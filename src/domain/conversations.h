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

}  // namespace parley
