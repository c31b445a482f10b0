// Storing the records behind events, each in one transaction with its outbox row: conversations
// and leads (for operators and tests; the chat engine writes its own), form submissions,
// bookings, return requests (and marking them handled), hand-offs by email and live-chat
// requests. Used by the admin CLI and the console on behalf of the widget and the team.
#pragma once

#include <optional>
#include <string>

#include "store/services.h"
#include "store/conversation_repo.h"
#include "store/lead_repo.h"
#include "store/record_repo.h"

namespace parley {

struct RecordedConversation {
  std::string agent_id;
  std::string channel = "widget";
  std::optional<std::string> page;
  std::optional<std::string> country;
};
Result<ConversationRecord> record_conversation(Services& s, const RecordedConversation& in);


// The record's agent_id, fields and optional conversation_id are taken from the argument; id,
// account and time are set here. Each adds its event to the outbox.
Result<FormSubmissionRecord> record_form_submission(Services& s, FormSubmissionRecord in);
Result<BookingRecord> record_booking(Services& s, BookingRecord in);
Result<ReturnRequestRecord> record_return_request(Services& s, ReturnRequestRecord in);
// Marks a return request handled (no event).
Result<void> mark_return_request_handled(Services& s, std::string_view id);

// The agent emailed the conversation to the team (optionally opening a helpdesk ticket), or
// asked the team to join it live; each adds its event, id "<conversation>:<ms>".
Result<std::string> record_handoff(Services& s, std::string_view conversation_id,
                                   const std::optional<std::string>& ticket);
Result<std::string> record_live_chat_request(Services& s, std::string_view conversation_id);

}  // namespace parley
