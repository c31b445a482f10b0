// Operator operation on leads (admin CLI): save a form or chat lead as the chat and form features
// would, in one transaction: the lead (or another submission of the same person), the agent's
// contact for it (source `lead`), and the lead.created event for a new lead.
#pragma once

#include <optional>
#include <string>

#include "store/services.h"
#include "store/lead_repo.h"

namespace parley {

struct NewLead {
  std::string agent_id;
  std::string source = "form";  // "form" | "chat"
  std::optional<std::string> email;
  std::optional<std::string> phone;
  std::optional<std::string> name;
  std::optional<std::string> form_id;
  std::string custom_fields = "[]";  // JSON array of {id, value}
  std::optional<std::string> conversation_id;
  std::optional<int64_t> at;  // default: now
};

Result<LeadSaved> admin_save_lead(Services& s, const NewLead& in);

}  // namespace parley
