// Reads about widget visitors: how many messages a visitor sent to an agent (the widget's
// messages-per-visitor rule). Stateless; runs on the connection it is given.
#pragma once

#include <cstdint>
#include <string_view>

#include "store/db.h"

namespace parley {

class VisitorQueries {
 public:
  // The visitor's own messages to the agent, in every widget conversation, at or after `since`.
  static Result<int64_t> messages_since(Connection& c, std::string_view agent_id,
                                        std::string_view visitor_id, int64_t since_ms);
};

}  // namespace parley
