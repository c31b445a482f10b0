#include "domain/handoff.h"

#include "core/time_format.h"
#include "engine/handoff_intent.h"
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

Result<void> send_handoff_mail(const Mailer* mailer, const AgentRecord& agent,
                               const HandoffSettings& handoff, std::string_view conversation_id,
                               const std::vector<HistoryMessage>& history, std::string_view message,
                               std::string_view reply, int64_t at_ms) {
  if (!handoff.email) return ApiError::internal("The agent has no hand-off address.");
  if (mailer == nullptr || !mailer->configured()) {
    return ApiError::internal("Hand-off mail is not configured on this server.");
  }
  HandoffMail mail{*handoff.email, agent.name, std::string(conversation_id), {}, at_ms};
  for (const auto& m : history) mail.transcript.push_back({m.role, m.content});
  mail.transcript.push_back({"user", std::string(message)});
  mail.transcript.push_back({"assistant", std::string(reply)});
  return mailer->send(compose_handoff_mail(mail));
}

Result<void> record_reply_handoff(Connection& c, Random& random, std::string_view account_id,
                                  std::string_view conversation_id, const ReplyBlocks& blocks,
                                  bool was_offered, int64_t at_ms) {
  bool offered = blocks.live_chat == "offered";
  bool requested = blocks.live_chat == "requested";
  if (!blocks.handoff && !offered && !requested) {
    if (!was_offered) return {};  // the common case: nothing to read or write
    // The pending offer lapses.
    PARLEY_TRY(ConversationRepo::lock(c, conversation_id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_id, conversation_id));
    if (!conv || !conv->live_chat_offered) return {};
    conv->live_chat_offered = false;
    return ConversationRepo::update(c, *conv);
  }
  // Read again: appending the messages moved its counters.
  PARLEY_TRY(ConversationRepo::lock(c, conversation_id));  // read-modify-write
  PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_id, conversation_id));
  if (!conv) return ApiError::not_found("No conversation '" + std::string(conversation_id) + "'.");
  conv->live_chat_offered = offered;
  if (requested && conv->live_chat_status != "active") {  // not when a member already has it
    conv->live_chat_status = "requested";
    conv->live_chat_requested_at = at_ms;
    PARLEY_TRY(add_to_outbox(c, random,
                             {conv->account_id, conv->agent_id, "live_chat.requested",
                              handoff_event_id(conv->id, at_ms), at_ms}));
  }
  if (blocks.handoff) return record_handoff(c, random, *conv, at_ms);
  return ConversationRepo::update(c, *conv);
}

}  // namespace parley
