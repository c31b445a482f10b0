#include "store/visitor_queries.h"

namespace parley {

Result<int64_t> VisitorQueries::messages_since(Connection& c, std::string_view agent_id,
                                               std::string_view visitor_id, int64_t since_ms) {
  PARLEY_ASSIGN_OR_RETURN(auto n, c.query_int(
      "SELECT COUNT(*) FROM messages m JOIN conversations v ON v.id = m.conversation_id "
      "WHERE v.agent_id = $1 AND v.visitor_id = $2 AND v.channel = 'widget' AND m.role = 'user' "
      "AND m.created_at >= $3",
      {agent_id, visitor_id, since_ms}));
  return n.value_or(0);
}

}  // namespace parley
