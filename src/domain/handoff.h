// Hand-off by email: the agent mails the conversation to the team's hand-off address, and the
// conversation records when (handoff_requested_at) with a `handoff.requested` outbox event whose
// id is "<conversationId>:<ms>". Live chat: an offer is remembered on the conversation until the
// next message; accepted, it becomes a `requested` live chat with a `live_chat.requested` event.
// The mail is sent before the exchange is stored, so a mail that cannot be sent fails the request
// and nothing is half-saved. Stateless; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/random.h"
#include "core/result.h"
#include "engine/mailer.h"
#include "engine/reply_engine.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"
#include "store/db.h"

namespace parley {

struct TranscriptLine {
  std::string role;  // "user" | "assistant"
  std::string content;
};

struct HandoffMail {
  std::string to;
  std::string agent_name;
  std::string conversation_id;
  std::vector<TranscriptLine> transcript;  // oldest first, the new exchange included
  int64_t at_ms = 0;
};

// The mail as sent: subject naming the agent, the conversation id, and the transcript.
MailMessage compose_handoff_mail(const HandoffMail& mail);

// Sets the conversation's handoff_requested_at and adds the `handoff.requested` event, inside
// the caller's write transaction.
Result<void> record_handoff(Connection& c, Random& random, ConversationRecord& conversation,
                            int64_t at_ms);

// The event id of a hand-off or live-chat request: "<conversationId>:<ms>".
std::string handoff_event_id(std::string_view conversation_id, int64_t at_ms);

// Mails the conversation (history, the new message and the reply) to the agent's
// `handoffEmail`. 500 internal_error when mail is not configured or the SMTP server refuses.
Result<void> send_handoff_mail(const Mailer* mailer, const AgentRecord& agent,
                               const HandoffSettings& handoff, std::string_view conversation_id,
                               const std::vector<HistoryMessage>& history, std::string_view message,
                               std::string_view reply, int64_t at_ms);

// Stores what a reply changed about the conversation, inside the caller's write transaction
// (after its messages): a hand-off (handoff_requested_at and a `handoff.requested` event), live
// chat offered (remembered for the next message), or requested (status `requested` and a
// `live_chat.requested` event); an offer not taken up is forgotten.
Result<void> record_reply_handoff(Connection& c, Random& random, std::string_view account_id,
                                  std::string_view conversation_id, const ReplyBlocks& blocks,
                                  bool was_offered, int64_t at_ms);

}  // namespace parley
