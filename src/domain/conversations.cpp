#include "domain/conversations.h"

namespace parley {

Result<ConversationWithMessages> get_conversation(Connection& c, std::string_view account_id,
                                                  std::string_view conversation_id) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_id, conversation_id));
  if (!conv) {
    return ApiError::not_found("No conversation " + std::string(conversation_id) +
                               " in this account.");
  }
  PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, conversation_id));
  return ConversationWithMessages{std::move(*conv), std::move(messages)};
}

}  // namespace parley
