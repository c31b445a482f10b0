// The persisted forms of agents' knowledge indexes (table knowledge_index_forms, migration 0050):
// one row per agent holding the bytes of its index at one knowledge version
// (knowledge/index_form.h). The store does not read the bytes; the knowledge layer does.
// A form goes with its agent (foreign key). Stateless; every function runs on the connection it
// is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/db.h"

namespace parley {

struct StoredKnowledgeForm {
  int64_t version = 0;
  int64_t format = 0;
  std::string form;
};

class KnowledgeFormRepo {
 public:
  // Stores the agent's form at `version`, unless the stored one is of a later version.
  static Result<void> save(Connection& c, std::string_view agent_id, int64_t version,
                           int64_t format, std::string_view form, int64_t now);
  // The agent's form when it is of `version`; nothing otherwise.
  static Result<std::optional<StoredKnowledgeForm>> find(Connection& c, std::string_view agent_id,
                                                         int64_t version);
  // The version of the agent's stored form, if it has one (without reading its bytes).
  static Result<std::optional<int64_t>> stored_version(Connection& c, std::string_view agent_id);
};

}  // namespace parley
