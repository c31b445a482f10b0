#include "domain/conversation_admin.h"

#include "core/json.h"
#include "store/conversation_repo.h"

#include <charconv>

#include "core/time_format.h"
#include "domain/gaps.h"
#include "domain/topic_analysis.h"
#include "store/agent_repo.h"
#include "store/conversation_queries.h"

namespace parley {

namespace {
Result<ConversationRecord> find_conversation(Connection& c, std::string_view id) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation_any(c, id));
  if (!conv) return ApiError::not_found("No conversation " + std::string(id) + ".");
  return std::move(*conv);
}

Result<ConversationWithMessages> load(Connection& c, std::string_view id) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation(c, id));
  PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, id));
  return ConversationWithMessages{std::move(conv), std::move(messages)};
}

Result<void> append(Connection& c, Services& s, const ConversationRecord& conv, const NewMessage& m,
                    int64_t default_time) {
  MessageRecord rec;
  rec.id = new_ordered_id(s.random, "msg_");
  rec.conversation_id = conv.id;
  rec.role = m.role;
  rec.content = m.content;
  rec.author_name = m.author_name;
  rec.sources = m.sources;
  rec.created_at = m.created_at.value_or(default_time);
  PARLEY_TRY(ConversationRepo::append_message(c, rec));
  return {};
}

Result<void> analyze(Connection& c, const ConversationRecord& conv) {
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, conv.agent_id));
  if (!agent) return ApiError::not_found("No agent " + conv.agent_id + ".");
  return refresh_topics(c, parse_agent_settings(agent->settings), conv.id);
}

// Runs `change` on the conversation in one transaction and returns it as stored afterwards.
Result<ConversationWithMessages> modify(
    Services& s, std::string_view id,
    const std::function<Result<void>(Connection&, ConversationRecord&)>& change) {
  std::optional<ConversationWithMessages> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::lock(c, id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation(c, id));
    PARLEY_TRY(change(c, conv));
    PARLEY_ASSIGN_OR_RETURN(out, load(c, id));
    return {};
  }));
  return std::move(*out);
}
}  // namespace

Result<int64_t> parse_time_argument(std::string_view text, std::string_view option) {
  int64_t ms = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) return ms;
  if (auto t = parse_timestamp(text)) return *t;
  return ApiError::invalid("'" + std::string(option) +
                           "' must be an ISO 8601 time or milliseconds.");
}

Result<std::vector<NewMessage>> parse_new_messages(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsArray())
    return ApiError::invalid("'messages' must be a JSON array.");
  std::vector<NewMessage> out;
  for (const auto& item : doc.GetArray()) {
    if (!item.IsObject()) return ApiError::invalid("Each of 'messages' must be an object.");
    FieldReader r(item);
    NewMessage m;
    PARLEY_ASSIGN_OR_RETURN(m.role, r.required_string("role"));
    if (m.role != "user" && m.role != "assistant")
      return ApiError::invalid("'role' must be user or assistant.");
    PARLEY_ASSIGN_OR_RETURN(m.content, r.required_string("content"));
    PARLEY_ASSIGN_OR_RETURN(m.author_name, r.optional_string("authorName"));
    if (const auto* sources = r.get("sources"); sources != nullptr && sources->IsArray())
      m.sources = to_json(*sources);
    PARLEY_ASSIGN_OR_RETURN(auto at, r.optional_string("createdAt"));
    if (at) {
      PARLEY_ASSIGN_OR_RETURN(m.created_at, parse_time_argument(*at, "createdAt"));
    }
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::vector<ConversationWithMessages>> admin_create_conversations(Services& s,
                                                                         const NewConversation& in,
                                                                         int64_t count) {
  if (in.channel != "widget" && in.channel != "api")
    return ApiError::invalid("'channel' must be widget or api.");
  if (count < 1 || count > 100000) return ApiError::invalid("'count' must be 1 to 100000.");
  if (count > 1 && in.session_id)
    return ApiError::invalid("'session' cannot be given with a count above 1.");
  int64_t created_at = in.created_at.value_or(s.clock.now_ms());
  std::vector<ConversationWithMessages> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out.clear();
    PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, in.agent_id));
    if (!agent) return ApiError::not_found("No agent " + in.agent_id + ".");
    const AgentSettings settings = parse_agent_settings(agent->settings);
    for (int64_t i = 0; i < count; ++i) {
      ConversationRecord conv;
      conv.id = new_ordered_id(s.random, "cnv_");
      conv.agent_id = in.agent_id;
      conv.account_id = agent->account_id;
      conv.channel = in.channel;
      conv.country = in.country;
      conv.page = in.page;
      conv.session_id = in.session_id.value_or(
          in.channel == "api" ? "svcapi_" + ordered_base62(s.random) : new_id(s.random, "ses_"));
      conv.created_at = conv.last_activity_at = created_at;
      PARLEY_TRY(ConversationRepo::insert(c, conv));
      for (const auto& m : in.messages) PARLEY_TRY(append(c, s, conv, m, conv.created_at));
      PARLEY_TRY(refresh_topics(c, settings, conv.id));
      PARLEY_ASSIGN_OR_RETURN(auto stored, load(c, conv.id));
      out.push_back(std::move(stored));
    }
    return {};
  }));
  return out;
}

Result<ConversationWithMessages> admin_create_conversation(Services& s, const NewConversation& in) {
  PARLEY_ASSIGN_OR_RETURN(auto all, admin_create_conversations(s, in, 1));
  return std::move(all.front());
}

Result<ConversationWithMessages> admin_add_message(Services& s, std::string_view id,
                                                   const NewMessage& m) {
  if (m.role != "user" && m.role != "assistant")
    return ApiError::invalid("'role' must be user or assistant.");
  int64_t now = s.clock.now_ms();
  return modify(s, id, [&](Connection& c, ConversationRecord& conv) -> Result<void> {
    PARLEY_TRY(append(c, s, conv, m, now));
    return analyze(c, conv);
  });
}

Result<ConversationWithMessages> admin_set_csat(Services& s, std::string_view id, int64_t score,
                                                std::optional<std::string> comment,
                                                std::optional<int64_t> at) {
  if (score < 1 || score > 5) return ApiError::invalid("'score' must be 1 to 5.");
  int64_t when = at.value_or(s.clock.now_ms());
  return modify(s, id, [&](Connection& c, ConversationRecord& conv) -> Result<void> {
    conv.csat_score = score;
    conv.csat_comment = comment;
    conv.csat_rated_at = when;
    PARLEY_TRY(ConversationRepo::update(c, conv));
    return note_csat_gap(c, s.random, conv);
  });
}

Result<ConversationWithMessages> admin_set_live_chat(Services& s, std::string_view id,
                                                     std::string_view status,
                                                     std::optional<int64_t> at) {
  if (status != "requested" && status != "active" && status != "ended" && status != "none") {
    return ApiError::invalid("'status' must be requested, active, ended or none.");
  }
  int64_t when = at.value_or(s.clock.now_ms());
  return modify(s, id, [&](Connection& c, ConversationRecord& conv) -> Result<void> {
    if (status == "none") {
      conv.live_chat_status.reset();
      conv.live_chat_requested_at.reset();
      conv.live_chat_started_at.reset();
      conv.live_chat_ended_at.reset();
      conv.taken_over_by.reset();
    } else {
      conv.live_chat_status = std::string(status);
      if (status == "requested") conv.live_chat_requested_at = when;
      if (status == "active") conv.live_chat_started_at = when;
      if (status == "ended") {
        if (!conv.live_chat_started_at) conv.live_chat_started_at = when;
        conv.live_chat_ended_at = when;
        conv.taken_over_by.reset();
      }
    }
    return ConversationRepo::update(c, conv);
  });
}

Result<ConversationWithMessages> admin_set_handoff(Services& s, std::string_view id,
                                                   std::optional<int64_t> at) {
  int64_t when = at.value_or(s.clock.now_ms());
  return modify(s, id, [&](Connection& c, ConversationRecord& conv) -> Result<void> {
    conv.handoff_requested_at = when;
    return ConversationRepo::update(c, conv);
  });
}

Result<void> admin_delete_conversation(Services& s, std::string_view id) {
  return s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation(c, id));
    PARLEY_ASSIGN_OR_RETURN(auto removed, ConversationRepo::remove(c, conv.account_id, id));
    if (!removed) return ApiError::not_found("No conversation " + std::string(id) + ".");
    return {};
  });
}

Result<ConversationWithMessages> admin_get_conversation(Services& s, std::string_view id) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
  return load(c, id);
}

}  // namespace parley
