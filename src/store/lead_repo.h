// Leads: one per person per agent (person_key: the lower-cased email, else the phone's digits).
// The same person giving details again moves lastSeenAt and submissionCount instead of adding a
// lead. Stateless; every function runs on the connection it is given.
#pragma once

#include <optional>
#include <string>

#include "store/db.h"

namespace parley {

struct LeadRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  std::string person_key;
  std::optional<std::string> email;
  std::optional<std::string> phone;
  std::optional<std::string> name;
  std::string custom_fields = "[]";  // JSON array of {id, value}
  std::optional<std::string> form_id;
  std::string source = "chat";  // "form" | "chat"
  std::optional<std::string> conversation_id;
  int64_t collected_at = 0;
  int64_t last_seen_at = 0;
  int64_t submission_count = 1;
};

struct LeadSaved {
  LeadRecord lead;  // as stored now
  bool created = false;
};

class LeadRepo {
 public:
  // Inserts the lead, or when the agent already has one for the same person, fills in details it
  // lacked, moves last_seen_at to `lead.collected_at` and counts one more submission. A new lead
  // is counted on the agent.
  static Result<LeadSaved> save(Connection& c, const LeadRecord& lead);
  static Result<std::optional<LeadRecord>> find(Connection& c, std::string_view account_id,
                                                std::string_view id);
  // The column list read_row expects, for queries kept in other files (list pages).
  static std::string_view columns();
  static LeadRecord read_row(const Row& r);
};

}  // namespace parley
