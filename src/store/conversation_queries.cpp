#include "store/conversation_queries.h"

#include "store/figure_repo.h"

namespace parley {

std::string like_anywhere(std::string_view text) {
  std::string out = "%";
  for (char ch : text) {
    if (ch == '%' || ch == '_' || ch == '!') out.push_back('!');
    out.push_back(ch);
  }
  out.push_back('%');
  return out;
}

Result<Page<ConversationRecord>> ConversationQueries::list(Connection& c, std::string_view agent_id,
                                                           const PageQuery& q,
                                                           std::string_view containing) {
  const KeysetTable table{"conversations", ConversationRepo::columns(), "created_at",
                          "last_activity_at"};
  std::vector<ConversationRecord> rows;
  std::string scope = "agent_id = $1";
  std::vector<DbValue> params{std::string(agent_id)};
  if (!containing.empty()) {
    scope +=
        " AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id"
        " AND lower(m.content) LIKE lower($2) ESCAPE '!')";
    params.emplace_back(like_anywhere(containing));
  }
  PARLEY_TRY(query_keyset_page(c, table, scope, params, q, [&](const Row& r) {
    rows.push_back(ConversationRepo::read_row(r));
  }));
  return finish_page(std::move(rows), q.limit);
}

Result<std::vector<ConversationRecord>> ConversationQueries::live_chats(Connection& c,
                                                                        std::string_view agent_id) {
  std::vector<ConversationRecord> rows;
  PARLEY_TRY(c.query(
      "SELECT " + std::string(ConversationRepo::columns()) +
          " FROM conversations WHERE agent_id = $1 AND live_chat_status IN ('requested', 'active')"
          " ORDER BY created_at, id LIMIT 200",
      {std::string(agent_id)},
      [&](const Row& r) { rows.push_back(ConversationRepo::read_row(r)); }));
  return rows;
}

Result<std::vector<std::pair<int64_t, int64_t>>> ConversationQueries::user_messages_per_day(
    Connection& c, std::string_view account_id, int64_t since_ms) {
  std::vector<std::pair<int64_t, int64_t>> days;
  PARLEY_TRY(
      c.query("SELECT m.created_at / 86400000 AS day, COUNT(*) FROM messages m"
              " JOIN conversations c ON c.id = m.conversation_id"
              " WHERE c.account_id = $1 AND c.last_activity_at >= $2 AND m.role = 'user' AND "
              "m.created_at >= $2"
              " GROUP BY m.created_at / 86400000 ORDER BY 1",
              {std::string(account_id), since_ms},
              [&](const Row& r) { days.emplace_back(r.int64(0), r.int64(1)); }));
  return days;
}

Result<void> ConversationQueries::set_analysis(Connection& c, std::string_view id,
                                               std::string_view topics_json,
                                               const std::optional<std::string>& sentiment) {
  // The figures count topics, not sentiment: they are recounted only when the topics move.
  PARLEY_ASSIGN_OR_RETURN(
      int64_t moved,
      c.execute("UPDATE conversations SET topics = $2 WHERE id = $1 AND topics <> $2",
                {id, topics_json}));
  PARLEY_TRY(
      c.execute("UPDATE conversations SET sentiment = $2 WHERE id = $1", {id, db_opt(sentiment)}));
  if (moved > 0) PARLEY_TRY(FigureRepo::refresh(c, id));
  return {};
}

}  // namespace parley
