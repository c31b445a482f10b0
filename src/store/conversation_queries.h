// Read-side queries over conversations for the data API and the admin CLI: the keyset-paged list,
// lookups by id alone (operator tools), and storing the topic analysis. Writes of conversations
// and messages go through ConversationRepo. Stateless; runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "store/conversation_repo.h"
#include "store/keyset.h"

namespace parley {

class ConversationQueries {
 public:
  // The agent's conversations newest first (created_at, id); `since` filters on last activity.
  static Result<Page<ConversationRecord>> list(Connection& c, std::string_view agent_id,
                                               const PageQuery& q);
  static Result<void> set_analysis(Connection& c, std::string_view id, std::string_view topics_json,
                                   const std::optional<std::string>& sentiment);
};

}  // namespace parley
