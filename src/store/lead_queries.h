// Read-side queries over leads for the data API: the keyset-paged list. Leads are written through
// LeadRepo. Stateless; runs on the connection it is given.
#pragma once

#include <string_view>

#include "store/keyset.h"
#include "store/lead_repo.h"

namespace parley {

class LeadQueries {
 public:
  // The agent's leads newest first (collected_at, id); `since` filters on last_seen_at (saved or
  // submitted again at or after it).
  static Result<Page<LeadRecord>> list(Connection& c, std::string_view agent_id,
                                       const PageQuery& q);
};

}  // namespace parley
