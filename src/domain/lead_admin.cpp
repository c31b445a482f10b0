#include "domain/lead_admin.h"

#include "core/json.h"
#include "domain/contacts.h"
#include "domain/leads.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"

namespace parley {

namespace {
// One lead per person: the lower-cased email, else the phone's digits.
std::optional<std::string> person_key(const NewLead& in) {
  if (in.email && !in.email->empty()) return lower_ascii(*in.email);
  if (in.phone) {
    std::string digits;
    for (char c : *in.phone)
      if (c >= '0' && c <= '9') digits += c;
    if (!digits.empty()) return digits;
  }
  return std::nullopt;
}

Result<void> check_custom_fields(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsArray())
    return ApiError::invalid("'custom-fields' must be a JSON array.");
  for (const auto& f : doc.GetArray()) {
    if (!f.IsObject() || !f.HasMember("id") || !f["id"].IsString() || !f.HasMember("value")) {
      return ApiError::invalid("Each of 'custom-fields' must be an object with 'id' and 'value'.");
    }
  }
  return {};
}
}  // namespace

Result<LeadSaved> admin_save_lead(Services& s, const NewLead& in) {
  if (in.source != "form" && in.source != "chat")
    return ApiError::invalid("'source' must be form or chat.");
  auto key = person_key(in);
  if (!key) return ApiError::invalid("'email' or 'phone' is required.");
  PARLEY_TRY(check_custom_fields(in.custom_fields));
  LeadRecord lead;
  lead.id = new_ordered_id(s.random, "lead_");
  lead.agent_id = in.agent_id;
  lead.person_key = *key;
  lead.email = in.email;
  lead.phone = in.phone;
  lead.name = in.name;
  lead.custom_fields = in.custom_fields;
  lead.form_id = in.form_id;
  lead.source = in.source;
  lead.conversation_id = in.conversation_id;
  int64_t now = s.clock.now_ms();
  lead.collected_at = lead.last_seen_at = in.at.value_or(now);
  std::optional<LeadSaved> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, in.agent_id));
    if (!agent) return ApiError::not_found("No agent " + in.agent_id + ".");
    lead.account_id = agent->account_id;
    if (lead.conversation_id) {
      PARLEY_ASSIGN_OR_RETURN(auto conv,
                              ConversationRepo::find(c, agent->account_id, *lead.conversation_id));
      if (!conv)
        return ApiError::not_found("No conversation " + *lead.conversation_id +
                                   " in the agent's account.");
    }
    PARLEY_ASSIGN_OR_RETURN(auto saved, record_lead(c, s.random, now, lead));
    out = std::move(saved);
    return {};
  }));
  return std::move(*out);
}

}  // namespace parley
