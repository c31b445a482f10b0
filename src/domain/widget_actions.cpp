#include "domain/widget_actions.h"

#include "core/json.h"
#include "domain/contacts.h"
#include "domain/gaps.h"
#include "domain/leads.h"

namespace parley {

Result<void> check_form_id(const AgentSettings& settings, std::string_view form_id) {
  for (const auto& form : settings.forms)
    if (form.id == form_id) return {};
  return ApiError::invalid("'formId' must name one of the agent's forms; '" + std::string(form_id) +
                           "' is not one.");
}

Result<LeadSaved> record_visitor_contact(Services& s, const ConversationRecord& conv,
                                         const VisitorContact& in) {
  if (!in.email && !in.phone) return ApiError::invalid("'email' or 'phone' is required.");
  if (in.email && !is_valid_email(*in.email))
    return ApiError::invalid("'email' must be a valid email address.");
  if (in.phone && !is_valid_phone(*in.phone))
    return ApiError::invalid("'phone' must be 7 to 15 digits, optionally preceded by '+'.");
  if (in.name && utf8_length(*in.name) > 100)
    return ApiError::invalid("'name' must be at most 100 characters.");
  LeadRecord lead;
  lead.id = new_ordered_id(s.random, "lead_");
  lead.agent_id = conv.agent_id;
  lead.account_id = conv.account_id;
  if (in.email) {
    lead.person_key = lower_ascii(*in.email);
  } else {
    for (char ch : *in.phone)
      if (ch >= '0' && ch <= '9') lead.person_key += ch;
  }
  lead.email = in.email ? std::optional(lower_ascii(*in.email)) : std::nullopt;
  lead.phone = in.phone;
  lead.name = in.name;
  lead.custom_fields = in.custom_fields;
  lead.form_id = in.form_id;
  lead.source = "form";
  lead.conversation_id = conv.id;
  LeadSaved saved;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    int64_t now = s.clock.now_ms();
    lead.collected_at = lead.last_seen_at = now;
    PARLEY_ASSIGN_OR_RETURN(saved, record_lead(c, s.random, now, lead));
    return {};
  }));
  return saved;
}

Result<ConversationRecord> rate_conversation(Services& s, std::string_view conversation_id,
                                             int64_t score, std::optional<std::string> comment) {
  if (score < 1 || score > 5) return ApiError::invalid("'score' must be an integer from 1 to 5.");
  if (comment && utf8_length(*comment) > kMaxCsatCommentChars)
    return ApiError::invalid("'comment' must be at most 1000 characters.");
  if (comment && comment->empty()) comment.reset();
  ConversationRecord out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(ConversationRepo::lock(c, conversation_id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(auto conv, find_conversation_any(c, conversation_id));
    if (!conv) return ApiError::not_found("No conversation " + std::string(conversation_id) + ".");
    out = std::move(*conv);
    out.csat_score = score;
    out.csat_comment = std::move(comment);
    out.csat_rated_at = s.clock.now_ms();
    PARLEY_TRY(ConversationRepo::update(c, out));
    return note_csat_gap(c, s.random, out);
  }));
  return out;
}

}  // namespace parley
