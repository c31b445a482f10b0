#include "domain/records.h"

#include <algorithm>

#include "core/json.h"
#include "events/event_body.h"
#include "events/outbox.h"
#include "store/agent_repo.h"

namespace parley {

namespace {
Result<AgentRecord> agent_of(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, agent_id));
  if (!agent) return ApiError::not_found("No agent " + std::string(agent_id) + ".");
  return std::move(*agent);
}

Result<void> check_conversation(Connection& c, const std::optional<std::string>& id,
                                const AgentRecord& agent) {
  if (!id) return {};
  PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, agent.account_id, *id));
  if (!conv || conv->agent_id != agent.id)
    return ApiError::not_found("No conversation " + *id + " of this agent.");
  return {};
}

Result<void> check_json_array(std::string_view json, std::string_view field) {
  rapidjson::Document d;
  d.Parse(json.data(), json.size());
  if (d.HasParseError() || !d.IsArray())
    return ApiError::invalid("'" + std::string(field) + "' must be a JSON array.");
  return {};
}

Result<void> outbox(Connection& c, Services& s, const AgentRecord& agent, std::string_view event,
                    std::string_view event_id, int64_t at) {
  return add_to_outbox(c, s.random,
                       {agent.account_id, agent.id, std::string(event), std::string(event_id), at});
}
}  // namespace

Result<ConversationRecord> record_conversation(Services& s, const RecordedConversation& in) {
  if (in.channel != "widget" && in.channel != "api")
    return ApiError::invalid("'channel' must be widget or api.");
  ConversationRecord conv;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto agent, agent_of(c, in.agent_id));
    int64_t now = s.clock.now_ms();
    conv.id = new_ordered_id(s.random, "cnv_");
    conv.agent_id = agent.id;
    conv.account_id = agent.account_id;
    conv.channel = in.channel;
    conv.session_id = (in.channel == "api" ? "svcapi_" : "w_") + ordered_base62(s.random);
    conv.page = in.page;
    conv.country = in.country;
    conv.created_at = now;
    conv.last_activity_at = now;
    PARLEY_TRY(ConversationRepo::insert(c, conv));
    return outbox(c, s, agent, "conversation.created", conv.id, now);
  }));
  return conv;
}

Result<FormSubmissionRecord> record_form_submission(Services& s, FormSubmissionRecord in) {
  if (in.form_id.empty()) return ApiError::invalid("'form' is required.");
  PARLEY_TRY(check_json_array(in.fields, "fields"));
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto agent, agent_of(c, in.agent_id));
    PARLEY_TRY(check_conversation(c, in.conversation_id, agent));
    in.id = new_ordered_id(s.random, "fsub_");
    in.account_id = agent.account_id;
    in.created_at = s.clock.now_ms();
    PARLEY_TRY(RecordRepo::insert(c, in));
    return outbox(c, s, agent, "form.submitted", in.id, in.created_at);
  }));
  return in;
}

Result<BookingRecord> record_booking(Services& s, BookingRecord in) {
  if (in.provider.empty()) return ApiError::invalid("'provider' is required.");
  if (in.provider_status != "pending" && in.provider_status != "accepted") {
    return ApiError::invalid("'providerStatus' must be pending or accepted.");
  }
  if (in.length_minutes <= 0)
    return ApiError::invalid("'length' must be a positive number of minutes.");
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto agent, agent_of(c, in.agent_id));
    PARLEY_TRY(check_conversation(c, in.conversation_id, agent));
    in.id = new_ordered_id(s.random, "bkg_");
    in.account_id = agent.account_id;
    in.created_at = s.clock.now_ms();
    if (in.start_at == 0) in.start_at = in.created_at + 86'400'000;
    PARLEY_TRY(RecordRepo::insert(c, in));
    return outbox(c, s, agent, "booking.created", in.id, in.created_at);
  }));
  return in;
}

Result<ReturnRequestRecord> record_return_request(Services& s, ReturnRequestRecord in) {
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto agent, agent_of(c, in.agent_id));
    PARLEY_TRY(check_conversation(c, in.conversation_id, agent));
    in.id = new_ordered_id(s.random, "ret_");
    in.account_id = agent.account_id;
    in.status = "requested";
    in.handled_at.reset();
    in.created_at = s.clock.now_ms();
    PARLEY_TRY(RecordRepo::insert(c, in));
    return outbox(c, s, agent, "return.requested", in.id, in.created_at);
  }));
  return in;
}

Result<void> mark_return_request_handled(Services& s, std::string_view id) {
  return s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(bool done, RecordRepo::mark_return_handled(c, id, s.clock.now_ms()));
    if (!done) return ApiError::not_found("No return request " + std::string(id) + ".");
    return {};
  });
}

namespace {
enum class ConversationEvent { kHandoff, kLiveChat };

Result<std::string> record_conversation_event(Services& s, std::string_view conversation_id,
                                              ConversationEvent kind,
                                              const std::optional<std::string>& ticket) {
  std::string event_id;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto account, RecordRepo::conversation_account(c, conversation_id));
    if (!account)
      return ApiError::not_found("No conversation " + std::string(conversation_id) + ".");
    PARLEY_TRY(ConversationRepo::lock(c, conversation_id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, *account, conversation_id));
    if (!conv) return ApiError::not_found("No conversation " + std::string(conversation_id) + ".");
    PARLEY_ASSIGN_OR_RETURN(auto agent, agent_of(c, conv->agent_id));
    int64_t now = s.clock.now_ms();
    if (kind == ConversationEvent::kHandoff) {
      conv->handoff_requested_at = now;
    } else {
      conv->live_chat_status = "requested";
      conv->live_chat_requested_at = now;
    }
    PARLEY_TRY(ConversationRepo::update(c, *conv));
    if (kind == ConversationEvent::kHandoff)
      PARLEY_TRY(RecordRepo::set_handoff_ticket(c, conv->id, ticket));
    event_id = conversation_event_id(conv->id, now);
    return outbox(c, s, agent,
                  kind == ConversationEvent::kHandoff ? "handoff.requested" : "live_chat.requested",
                  event_id, now);
  }));
  return event_id;
}
}  // namespace

Result<std::string> record_handoff(Services& s, std::string_view conversation_id,
                                   const std::optional<std::string>& ticket) {
  return record_conversation_event(s, conversation_id, ConversationEvent::kHandoff, ticket);
}

Result<std::string> record_live_chat_request(Services& s, std::string_view conversation_id) {
  return record_conversation_event(s, conversation_id, ConversationEvent::kLiveChat, std::nullopt);
}

}  // namespace parley
