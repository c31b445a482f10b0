#include "store/visitor_queries.h"

namespace parley {

Result<int64_t> VisitorQueries::messages_since(Connection& c, std::string_view agent_id,
                                               std::string_view visitor_id, int64_t since_ms) {
  PARLEY_ASSIGN_OR_RETURN(auto n, c.query_int(
      // Only conversations active since then can hold such messages; each is read through the
      // messages' (conversation_id, seq) index, never by scanning all messages.
      "SELECT COUNT(*) FROM messages WHERE role = 'user' AND created_at >= $3 AND conversation_id IN "
      "(SELECT id FROM conversations WHERE agent_id = $1 AND visitor_id = $2 "
      "AND channel = 'widget' AND last_activity_at >= $3)",
      {agent_id, visitor_id, since_ms}));
  return n.value_or(0);
}

}  // namespace parley
