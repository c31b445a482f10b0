#include "domain/team_takeover.h"

#include "core/json.h"

namespace parley {

namespace {
// The first name shown as authorName: the member's first word.
std::string first_name(std::string_view member) {
  while (!member.empty() && member.front() == ' ') member.remove_prefix(1);
  return std::string(member.substr(0, member.find(' ')));
}

Result<ConversationRecord> find_or_404(Connection& c, std::string_view id) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation_any(c, id));
  if (!conv) return ApiError::not_found("No conversation " + std::string(id) + ".");
  return std::move(*conv);
}
}  // namespace

Result<ConversationRecord> take_over_conversation(Services& s, std::string_view conversation_id,
                                                  std::string_view member) {
  std::string name = first_name(member);
  if (name.empty() || utf8_length(name) > 100)
    return ApiError::invalid("'--member' must be a name of 1 to 100 characters.");
  ConversationRecord out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::lock(c, conversation_id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(out, find_or_404(c, conversation_id));
    int64_t now = s.clock.now_ms();
    if (out.live_chat_status != "active") out.live_chat_started_at = now;
    out.live_chat_status = "active";
    out.live_chat_ended_at.reset();
    out.taken_over_by = name;
    return ConversationRepo::update(c, out);
  }));
  return out;
}

Result<MessageRecord> team_reply(Services& s, std::string_view conversation_id,
                                 std::string_view member, std::string_view text,
                                 int64_t max_messages) {
  if (text.empty() || utf8_length(text) > 10'000)
    return ApiError::invalid("'--text' must be 1 to 10000 characters.");
  std::string name = first_name(member);
  if (name.empty()) return ApiError::invalid("'--member' is required.");
  MessageRecord out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto conv, find_or_404(c, conversation_id));
    if (!conv.taken_over_by) {
      return ApiError::invalid("Conversation " + conv.id +
                               " is not taken over; take it over first.");
    }
    PARLEY_TRY(check_message_room(conv, 1, max_messages));
    MessageRecord m{new_ordered_id(s.random, "msg_"), conv.id, 0,    "assistant",
                    std::string(text),        name,    "[]", s.clock.now_ms()};
    PARLEY_ASSIGN_OR_RETURN(out, ConversationRepo::append_message(c, std::move(m)));
    return {};
  }));
  return out;
}

Result<ConversationRecord> release_conversation(Services& s, std::string_view conversation_id) {
  ConversationRecord out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::lock(c, conversation_id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(out, find_or_404(c, conversation_id));
    if (!out.taken_over_by)
      return ApiError::invalid("Conversation " + out.id + " is not taken over.");
    out.taken_over_by.reset();
    out.live_chat_status = "ended";
    out.live_chat_ended_at = s.clock.now_ms();
    return ConversationRepo::update(c, out);
  }));
  return out;
}

}  // namespace parley
