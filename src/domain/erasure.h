// "Erase contact": a person's right to be forgotten. Removes the contact and everything of its
// agent that holds or came from that person (store/erasure_repo.h lists it), in one write
// transaction, then scrubs the database's files (store/erasure_repo.h scrub_database_files), and
// reports how many rows of each kind went. Used by the console (owners and admins) and `parley
// admin contact erase`. Stateless; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "store/erasure_repo.h"
#include "store/services.h"

namespace parley {

struct ErasureReport {
  std::string contact_id;
  std::string agent_id;
  ErasureCounts removed;
};

// Erases the contact of `account_id` (any account's when nothing: operator tools). 404 when there
// is no such contact there.
Result<ErasureReport> erase_contact(Services& s, std::optional<std::string_view> account_id,
                                    std::string_view contact_id);

}  // namespace parley
