// What a widget visitor does besides chatting, on a conversation already found to be the
// visitor's own widget conversation: give contact details (a lead with source `form`, its
// contact and lead.created event through record_lead) and rate the conversation (CSAT). Form
// submissions, bookings and return requests go through domain/records.h. Each is one
// transaction. Knows no HTTP; safe from many threads.
#pragma once

#include <optional>
#include <string>

#include "model/agent_settings.h"
#include "store/services.h"
#include "store/conversation_repo.h"
#include "store/lead_repo.h"

namespace parley {

inline constexpr size_t kMaxCsatCommentChars = 1'000;

struct VisitorContact {
  std::optional<std::string> email;
  std::optional<std::string> phone;
  std::optional<std::string> name;
  std::string custom_fields = "[]";  // JSON array of {id, value}
  std::optional<std::string> form_id;
};

// 400 naming `formId` unless the agent's `forms` setting has a form of that id.
Result<void> check_form_id(const AgentSettings& settings, std::string_view form_id);

// 400 naming the field: neither email nor phone, an invalid email or phone, a name over 100.
Result<LeadSaved> record_visitor_contact(Services& s, const ConversationRecord& conv,
                                         const VisitorContact& in);

// Sets the conversation's csat {score, comment, ratedAt}; a later rating replaces it.
// 400 naming the field: score outside 1 to 5, comment over 1,000 characters.
Result<ConversationRecord> rate_conversation(Services& s, std::string_view conversation_id,
                                             int64_t score, std::optional<std::string> comment);

}  // namespace parley
