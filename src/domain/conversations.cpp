#include "domain/conversations.h"

namespace parley {

namespace {
Result<ConversationRecord> find_conversation(Connection& c, std::string_view account_id,
                                             std::string_view conversation_id) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_id, conversation_id));
  if (!conv) {
    return ApiError::not_found("No conversation " + std::string(conversation_id) +
                               " in this account.");
  }
  return std::move(*conv);
}
}  // namespace

Result<ConversationWithMessages> get_conversation(Connection& c, std::string_view account_id,
                                                  std::string_view conversation_id) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation(c, account_id, conversation_id));
  PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, conversation_id));
  return ConversationWithMessages{std::move(conv), std::move(messages)};
}

Result<void> check_message_room(const ConversationRecord& conv, int64_t adding, int64_t cap) {
  if (conv.message_count + adding <= cap) return {};
  return ApiError{ErrorCode::kConflict, "Conversation " + conv.id + " holds " +
                                            std::to_string(conv.message_count) +
                                            " messages, the most a conversation keeps (" +
                                            std::to_string(cap) + "); start a new conversation."};
}

Result<ConversationWithMessages> get_conversation_since(Connection& c, std::string_view account_id,
                                                        std::string_view conversation_id,
                                                        int64_t after) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation(c, account_id, conversation_id));
  ConversationWithMessages out{std::move(conv), {}};
  if (out.conversation.message_count > after) {
    PARLEY_ASSIGN_OR_RETURN(out.messages,
                            ConversationRepo::messages_after(c, conversation_id, after));
  }
  return out;
}

}  // namespace parley
