#include "domain/leads.h"

#include "domain/contacts.h"
#include "events/outbox.h"

namespace parley {

FormLabels::FormLabels(const AgentSettings& settings) {
  for (const auto& form : settings.forms) {
    if (!form.id) continue;
    auto& fields = forms_[*form.id];
    for (const auto& f : form.fields)
      if (f.id && f.label) fields.emplace(*f.id, *f.label);
  }
}

std::optional<std::string> FormLabels::label(const std::optional<std::string>& form_id,
                                             std::string_view field_id) const {
  auto from = [&](const std::map<std::string, std::string, std::less<>>& fields)
      -> std::optional<std::string> {
    auto it = fields.find(field_id);
    if (it == fields.end()) return std::nullopt;
    return it->second;
  };
  if (form_id) {
    auto form = forms_.find(*form_id);
    return form == forms_.end() ? std::nullopt : from(form->second);
  }
  for (const auto& [id, fields] : forms_)
    if (auto l = from(fields)) return l;
  return std::nullopt;
}

Result<LeadSaved> record_lead(Connection& c, Random& random, int64_t now, const LeadRecord& lead) {
  PARLEY_ASSIGN_OR_RETURN(LeadSaved saved, LeadRepo::save(c, lead));
  PARLEY_TRY(upsert_contact_from_lead(c, random, now, saved.lead));
  if (saved.created) {
    PARLEY_TRY(add_to_outbox(c, random,
                             {saved.lead.account_id, saved.lead.agent_id, "lead.created",
                              saved.lead.id, saved.lead.collected_at}));
  }
  return saved;
}

}  // namespace parley
