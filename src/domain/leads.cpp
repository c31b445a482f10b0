#include "domain/leads.h"

#include "domain/contacts.h"
#include "events/outbox.h"

namespace parley {

FormLabels::FormLabels(std::string_view settings_json) {
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return;
  auto forms = doc.FindMember("forms");
  if (forms == doc.MemberEnd() || !forms->value.IsArray()) return;
  for (const auto& form : forms->value.GetArray()) {
    if (!form.IsObject() || !form.HasMember("id") || !form["id"].IsString()) continue;
    auto& fields = forms_[form["id"].GetString()];
    if (!form.HasMember("fields") || !form["fields"].IsArray()) continue;
    for (const auto& f : form["fields"].GetArray()) {
      if (!f.IsObject() || !f.HasMember("id") || !f["id"].IsString()) continue;
      if (!f.HasMember("label") || !f["label"].IsString()) continue;
      fields.emplace(f["id"].GetString(), f["label"].GetString());
    }
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
