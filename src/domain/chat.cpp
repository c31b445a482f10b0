#include "domain/chat.h"

#include <unicode/timezone.h>

#include <algorithm>
#include <cctype>

#include "core/crypto.h"
#include "core/json.h"
#include "domain/agents.h"
#include "engine/contact_details.h"
#include "events/outbox.h"
#include "store/account_repo.h"
#include "store/conversation_repo.h"
#include "store/lead_repo.h"

namespace parley {

namespace {
bool is_blank(std::string_view s) {
  for (unsigned char c : s)
    if (!std::isspace(c)) return false;
  return true;
}

ApiError api_only(std::string_view field) {
  return ApiError::invalid("'" + std::string(field) +
                           "' names a conversation started in the chat widget; only conversations "
                           "started through the API can be continued through the API.");
}

std::string sources_json(const std::vector<SourceRef>& sources) {
  JsonWriter w;
  w.begin_array();
  for (const auto& s : sources) {
    w.begin_object().key("title").string(s.title).key("url").string_or_null(s.url).end_object();
  }
  w.end_array();
  return w.str();
}

// What the chat found before running the engine: the conversation to continue (or the one to
// start) and whether a team member has it.
struct Target {
  std::optional<ConversationRecord> existing;
  std::string conversation_id;
  std::string session_id;
};

Result<Target> resolve_conversation(ChatServices& s, Connection& c, std::string_view account_id,
                                    const AgentRecord& agent, const ChatRequest& r) {
  Target t;
  if (r.conversation_id) {
    PARLEY_ASSIGN_OR_RETURN(t.existing, ConversationRepo::find(c, account_id, *r.conversation_id));
    if (!t.existing || t.existing->agent_id != agent.id) {
      return ApiError::not_found("No conversation '" + *r.conversation_id + "' for this agent.");
    }
    if (t.existing->channel != "api") return api_only("conversationId");
  } else if (r.session_id) {
    t.session_id = api_session_id(agent.id, *r.session_id);
    PARLEY_ASSIGN_OR_RETURN(t.existing, ConversationRepo::find_by_session(c, agent.id, t.session_id));
    if (t.existing && t.existing->channel != "api") return api_only("sessionId");
  } else {
    t.session_id = "svcapi_" + random_base62(s.random, 22);
  }
  if (t.existing) {
    t.conversation_id = t.existing->id;
    t.session_id = t.existing->session_id;
  } else {
    t.conversation_id = new_id(s.random, "cnv_");
  }
  return t;
}
}  // namespace

bool is_known_time_zone(std::string_view zone) {
  if (zone.empty()) return false;
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString canonical;
  UBool is_system = false;
  icu::TimeZone::getCanonicalID(
      icu::UnicodeString::fromUTF8(icu::StringPiece(zone.data(), static_cast<int32_t>(zone.size()))), canonical,
      is_system, status);
  return U_SUCCESS(status) && is_system;
}

std::string api_session_id(std::string_view agent_id, std::string_view caller_session) {
  if (caller_session.rfind("svcapi", 0) == 0) return std::string(caller_session);
  std::string material(agent_id);
  material.push_back('\n');
  material += caller_session;
  return "svcapi_" + sha256_hex(material).substr(0, 32);
}

Result<void> validate_chat_request(const ChatRequest& r) {
  if (is_blank(r.message)) return ApiError::invalid("'message' must not be empty or only whitespace.");
  if (utf8_length(r.message) > kMaxMessageChars) {
    return ApiError::invalid("'message' must be at most 10000 characters.");
  }
  if (r.conversation_id && r.conversation_id->empty()) {
    return ApiError::invalid("'conversationId' must not be empty.");
  }
  if (r.session_id && (r.session_id->empty() || utf8_length(*r.session_id) > kMaxSessionIdChars)) {
    return ApiError::invalid("'sessionId' must be 1 to 100 characters.");
  }
  if (r.time_zone && !is_known_time_zone(*r.time_zone)) {
    return ApiError::invalid("'timeZone' must be an IANA time zone such as 'Europe/Paris'.");
  }
  return {};
}

Result<ChatReply> chat(ChatServices& s, std::string_view account_id, const ChatRequest& r) {
  PARLEY_TRY(validate_chat_request(r));
  Connection& read = s.db.read();
  PARLEY_ASSIGN_OR_RETURN(AgentRecord agent, get_agent(read, account_id, r.agent_id));
  if (agent.is_private) {
    return ApiError{ErrorCode::kAgentPrivate, "The agent is private; it answers only in the dashboard."};
  }
  PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(read, account_id));
  if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
  ReplySettings settings = read_reply_settings(agent.settings);
  ReplyLimits limits{account->effective().messages_per_month, settings.monthly_message_cap,
                     s.config.replies_per_agent_hour};

  PARLEY_ASSIGN_OR_RETURN(Target target, resolve_conversation(s, read, account_id, agent, r));
  bool paused = target.existing && target.existing->taken_over_by.has_value();
  const int64_t received_at = s.clock.now_ms();
  // Refuse early without running the engine; the write below checks again under its lock.
  if (!paused) PARLEY_TRY(check_reply_allowed(read, account_id, agent.id, limits, received_at));

  ChatReply out;
  out.conversation_id = target.conversation_id;
  out.session_id = target.session_id;
  if (!paused) {
    ReplyRequest er;
    er.agent_id = agent.id;
    er.settings = settings;
    er.knowledge = &s.retriever;
    er.message = r.message;
    er.time_zone = r.time_zone.value_or("UTC");
    er.deadline_ms = received_at + s.config.timeout_ms;
    if (target.existing) {
      PARLEY_ASSIGN_OR_RETURN(auto last, ConversationRepo::last_messages(read, target.existing->id, kHistoryWindow));
      for (auto& m : last) er.history.push_back({std::move(m.role), std::move(m.content)});
    }
    PARLEY_ASSIGN_OR_RETURN(out.blocks, s.engine.reply(er, [&out](std::string_view piece) {
      out.reply += piece;
      return true;
    }));
    if (s.clock.now_ms() > er.deadline_ms) {
      return ApiError{ErrorCode::kTimeout, "The reply took longer than " +
                                               std::to_string(s.config.timeout_ms / 1000) + " seconds."};
    }
    if (!settings.show_sources) out.blocks.sources.clear();
    out.live_chat = out.blocks.live_chat;
  } else {
    out.live_chat = "paused";
  }
  const int64_t replied_at = std::max(received_at, s.clock.now_ms());
  ContactDetails contact;
  if (settings.save_contact_details) contact = find_contact_details(r.message);

  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    std::optional<ConversationRecord> conv;
    if (target.existing) {
      PARLEY_ASSIGN_OR_RETURN(conv, ConversationRepo::find(c, account_id, target.conversation_id));
      if (!conv) return ApiError::not_found("No conversation '" + target.conversation_id + "' for this agent.");
    } else {
      // Another request may have started this session's conversation meanwhile.
      PARLEY_ASSIGN_OR_RETURN(conv, ConversationRepo::find_by_session(c, agent.id, target.session_id));
      if (conv && conv->channel != "api") return api_only("sessionId");
    }
    if (conv) {
      out.conversation_id = conv->id;
    } else {
      ConversationRecord fresh;
      fresh.id = target.conversation_id;
      fresh.agent_id = agent.id;
      fresh.account_id = std::string(account_id);
      fresh.session_id = target.session_id;
      fresh.channel = "api";
      fresh.created_at = fresh.last_activity_at = received_at;
      PARLEY_TRY(ConversationRepo::insert(c, fresh));
    }
    if (conv && conv->taken_over_by && !paused) {  // taken over while the reply was written
      paused = true;
      out = ChatReply{"", out.conversation_id, out.session_id, {}, "paused"};
    }
    if (!paused) {
      PARLEY_TRY(check_reply_allowed(c, account_id, agent.id, limits, replied_at));
      PARLEY_TRY(count_reply(c, account_id, agent.id, replied_at));
    }
    MessageRecord user{new_id(s.random, "msg_"), out.conversation_id, 0, "user", r.message, std::nullopt,
                       "[]", received_at};
    PARLEY_TRY(ConversationRepo::append_message(c, std::move(user)));
    if (!paused) {
      MessageRecord reply{new_id(s.random, "msg_"), out.conversation_id, 0, "assistant", out.reply,
                          std::nullopt, sources_json(out.blocks.sources), replied_at};
      PARLEY_TRY(ConversationRepo::append_message(c, std::move(reply)));
    }
    if (!contact.empty()) {
      LeadRecord lead;
      lead.id = new_id(s.random, "lead_");
      lead.agent_id = agent.id;
      lead.account_id = std::string(account_id);
      lead.person_key = contact.person_key();
      lead.email = contact.email;
      lead.phone = contact.phone;
      lead.source = "chat";
      lead.conversation_id = out.conversation_id;
      lead.collected_at = received_at;
      PARLEY_ASSIGN_OR_RETURN(LeadSaved saved, LeadRepo::save(c, lead));
      if (saved.created) {
        PARLEY_TRY(add_to_outbox(c, s.random, {std::string(account_id), agent.id, "lead.created",
                                               saved.lead.id, received_at}));
      }
    }
    return {};
  }));
  return out;
}

}  // namespace parley
