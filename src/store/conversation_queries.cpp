#include "store/conversation_queries.h"

namespace parley {

Result<Page<ConversationRecord>> ConversationQueries::list(Connection& c, std::string_view agent_id,
                                                           const PageQuery& q) {
  const KeysetTable table{"conversations", ConversationRepo::columns(), "created_at",
                          "last_activity_at"};
  std::vector<ConversationRecord> rows;
  PARLEY_TRY(
      query_keyset_page(c, table, "agent_id = $1", {std::string(agent_id)}, q,
                        [&](const Row& r) { rows.push_back(ConversationRepo::read_row(r)); }));
  return finish_page(std::move(rows), q.limit);
}

Result<void> ConversationQueries::set_analysis(Connection& c, std::string_view id,
                                               std::string_view topics_json,
                                               const std::optional<std::string>& sentiment) {
  PARLEY_TRY(c.execute("UPDATE conversations SET topics = $2, sentiment = $3 WHERE id = $1",
                       {id, topics_json, db_opt(sentiment)}));
  return {};
}

}  // namespace parley
