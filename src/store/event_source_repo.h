// Reads of leads and conversations shaped for events (lead.created, conversation.created,
// handoff.requested, live_chat.requested): the agent's latest ones and single ones by event id.
// Read-only; the chat engine and the console own the writes. Stateless.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/db.h"
#include "store/lead_repo.h"

namespace parley {

// What a conversation-based event needs.
struct ConversationEventRow {
  std::string conversation_id;
  std::string agent_id;
  std::string channel;
  std::optional<std::string> page;
  std::optional<std::string> country;
  int64_t created_at = 0;
  std::optional<int64_t> handoff_requested_at;
  std::optional<std::string> handoff_ticket;
  std::optional<int64_t> live_chat_requested_at;
  std::optional<std::string> live_chat_status;
};

enum class ConversationEventKind { kCreated, kHandoff, kLiveChat };

class EventSourceRepo {
 public:
  // The agent's leads, most recently saved first.
  static Result<std::vector<LeadRecord>> latest_leads(Connection& c, std::string_view agent_id,
                                                      int64_t limit);
  static Result<std::optional<LeadRecord>> find_lead(Connection& c, std::string_view agent_id,
                                                     std::string_view id);

  // The agent's conversations that have the event, newest event first.
  static Result<std::vector<ConversationEventRow>> latest_conversations(Connection& c,
                                                                        std::string_view agent_id,
                                                                        ConversationEventKind kind,
                                                                        int64_t limit);
  static Result<std::optional<ConversationEventRow>> find_conversation(Connection& c,
                                                                       std::string_view agent_id,
                                                                       std::string_view id);
};

}  // namespace parley
