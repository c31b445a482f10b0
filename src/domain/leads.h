// Leads as the data API shows them. A lead stores its custom fields as {id, value}; the labels
// come from the agent's `forms` setting when the lead is read, so they are those the form has now.
// Shape of that setting (docs/decisions/data.md):
//   [{"id": "form_1", "name": "Contact us", "fields": [{"id": "f1", "label": "Company"}]}]
// Knows no HTTP. FormLabels is immutable after construction.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/random.h"
#include "model/agent_settings.h"
#include "store/lead_repo.h"

namespace parley {

class FormLabels {
 public:
  // From an agent's `forms`: forms with an id, fields with an id and a label.
  explicit FormLabels(const AgentSettings& settings);
  // The label of the field in the lead's form; when the lead has no form, the first form with a
  // field of that id. Nothing when the field is no longer in the form.
  std::optional<std::string> label(const std::optional<std::string>& form_id,
                                   std::string_view field_id) const;

 private:
  std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>> forms_;
};

// Saves a lead however it came (a chat message, a form): the lead itself (or one more submission
// of the same person), the person's contact (source `lead`), and for a new lead its
// lead.created outbox event. Runs inside the caller's write transaction.
Result<LeadSaved> record_lead(Connection& c, Random& random, int64_t now, const LeadRecord& lead);

}  // namespace parley
