#include "domain/handoff.h"

#include "core/time_format.h"
#include "events/outbox.h"

namespace parley {

std::string handoff_event_id(std::string_view conversation_id, int64_t at_ms) {
  return std::string(conversation_id) + ":" + std::to_string(at_ms);
}

MailMessage compose_handoff_mail(const HandoffMail& mail) {
  MailMessage m;
  m.to = mail.to;
  m.subject = "Conversation handed off by " + mail.agent_name;
  m.date_ms = mail.at_ms;
  m.message_id = handoff_event_id(mail.conversation_id, mail.at_ms) + "@parley";
  std::string body;
  body += "A visitor asked to talk to a person in a conversation with " + mail.agent_name + ".\n\n";
  body += "Conversation: " + mail.conversation_id + "\n";
  body += "Channel: api\n";
  body += "Requested at: " + format_timestamp(mail.at_ms) + "\n\n";
  body += "Transcript:\n\n";
  for (const auto& line : mail.transcript) {
    body += (line.role == "user" ? "Visitor: " : "Agent: ") + line.content + "\n\n";
  }
  m.body = std::move(body);
  return m;
}

Result<void> record_handoff(Connection& c, Random& random, ConversationRecord& conversation,
                            int64_t at_ms) {
  conversation.handoff_requested_at = at_ms;
  PARLEY_TRY(ConversationRepo::update(c, conversation));
  return add_to_outbox(c, random,
                       {conversation.account_id, conversation.agent_id, "handoff.requested",
                        handoff_event_id(conversation.id, at_ms), at_ms});
}

}  // namespace parley
