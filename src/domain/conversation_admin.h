// Operator operations on conversations (admin CLI): create widget or API conversations with their
// messages, add a message, set the CSAT rating, the live-chat state or the hand-off time, delete.
// Each runs in one write transaction and re-runs topic analysis when messages change.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/services.h"
#include "domain/conversations.h"

namespace parley {

struct NewMessage {
  std::string role;  // "user" | "assistant"
  std::string content;
  std::optional<std::string> author_name;
  std::string sources = "[]";         // JSON array of {title, url}
  std::optional<int64_t> created_at;  // default: now (or the conversation's creation time)
};

struct NewConversation {
  std::string agent_id;
  std::string channel = "widget";
  std::optional<std::string> country;
  std::optional<std::string> page;
  std::optional<std::string> session_id;  // default: generated
  std::optional<int64_t> created_at;      // default: now
  std::vector<NewMessage> messages;
};

// Parses a JSON array of {role, content, authorName?, sources?, createdAt?}.
Result<std::vector<NewMessage>> parse_new_messages(std::string_view json);

Result<ConversationWithMessages> admin_create_conversation(Services& s, const NewConversation& in);
// `count` copies of the conversation (each with its own id and session) in one transaction.
Result<std::vector<ConversationWithMessages>> admin_create_conversations(Services& s,
                                                                         const NewConversation& in,
                                                                         int64_t count);
Result<ConversationWithMessages> admin_add_message(Services& s, std::string_view conversation_id,
                                                   const NewMessage& m);
Result<ConversationWithMessages> admin_set_csat(Services& s, std::string_view conversation_id,
                                                int64_t score, std::optional<std::string> comment,
                                                std::optional<int64_t> at);
// status: "requested", "active", "ended", or "none" to clear the live chat.
Result<ConversationWithMessages> admin_set_live_chat(Services& s, std::string_view conversation_id,
                                                     std::string_view status,
                                                     std::optional<int64_t> at);
Result<ConversationWithMessages> admin_set_handoff(Services& s, std::string_view conversation_id,
                                                   std::optional<int64_t> at);
Result<void> admin_delete_conversation(Services& s, std::string_view conversation_id);
Result<ConversationWithMessages> admin_get_conversation(Services& s,
                                                        std::string_view conversation_id);

// An operator's time argument: ISO 8601 or milliseconds since the epoch.
Result<int64_t> parse_time_argument(std::string_view text, std::string_view option);

}  // namespace parley
