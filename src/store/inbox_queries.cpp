#include "store/inbox_queries.h"

#include "store/conversation_queries.h"

namespace parley {

namespace {
#define UNANSWERED                                                                      \
  "(EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id"        \
  " AND m.outcome = 'fallback') OR EXISTS (SELECT 1 FROM messages m"                    \
  " WHERE m.conversation_id = conversations.id AND m.seq = conversations.message_count" \
  " AND m.role = 'user'))"
#define HANDED_OFF "(handoff_requested_at IS NOT NULL OR live_chat_status IS NOT NULL)"
#define RATED_LOW                                                                     \
  "((csat_score IS NOT NULL AND csat_score <= 2) OR EXISTS (SELECT 1 FROM messages m" \
  " WHERE m.conversation_id = conversations.id AND m.outcome IS NOT NULL AND m.rating = 'down'))"

// After the conversation's own columns, in this order.
#define INBOX_EXTRAS                                                               \
  ", (SELECT ct.name FROM contacts ct WHERE ct.id = conversations.contact_id)"     \
  ", (SELECT ct.email FROM contacts ct WHERE ct.id = conversations.contact_id)"    \
  ", (SELECT l.name FROM leads l WHERE l.conversation_id = conversations.id"       \
  " ORDER BY l.collected_at, l.id LIMIT 1)"                                        \
  ", (SELECT l.email FROM leads l WHERE l.conversation_id = conversations.id"      \
  " ORDER BY l.collected_at, l.id LIMIT 1)"                                        \
  ", (SELECT m.content FROM messages m WHERE m.conversation_id = conversations.id" \
  " AND m.role = 'user' ORDER BY m.seq LIMIT 1)"                                   \
  ", CASE WHEN " UNANSWERED                                                        \
  " THEN 1 ELSE 0 END"                                                             \
  ", CASE WHEN " HANDED_OFF                                                        \
  " THEN 1 ELSE 0 END"                                                             \
  ", CASE WHEN " RATED_LOW " THEN 1 ELSE 0 END"

InboxRow read_inbox_row(const Row& r) {
  InboxRow out;
  out.conversation = ConversationRepo::read_row(r);
  const int at = ConversationRepo::column_count();  // the conversation's columns come first
  auto contact_name = r.opt_text(at), contact_email = r.opt_text(at + 1);
  auto lead_name = r.opt_text(at + 2), lead_email = r.opt_text(at + 3);
  // The bound contact when there is one, else the conversation's lead.
  if (contact_name || contact_email) {
    out.visitor_name = contact_name;
    out.visitor_email = contact_email;
  } else {
    out.visitor_name = lead_name;
    out.visitor_email = lead_email;
  }
  out.preview = r.opt_text(at + 4);
  out.unanswered = r.boolean(at + 5);
  out.handed_off = r.boolean(at + 6);
  out.rated_low = r.boolean(at + 7);
  return out;
}
}  // namespace

std::string_view InboxQueries::filter_sql(InboxFilter filter) {
  switch (filter) {
    case InboxFilter::kUnanswered:
      return UNANSWERED;
    case InboxFilter::kHandedOff:
      return HANDED_OFF;
    case InboxFilter::kRatedLow:
      return RATED_LOW;
    case InboxFilter::kAll:
      break;
  }
  return "";
}

Result<Page<InboxRow>> InboxQueries::list(Connection& c, std::string_view agent_id,
                                          const PageQuery& q, std::string_view containing,
                                          InboxFilter filter) {
  const std::string columns = std::string(ConversationRepo::columns()) + INBOX_EXTRAS;
  const KeysetTable table{"conversations", columns, "created_at", "last_activity_at"};
  std::string scope = "agent_id = $1";
  std::vector<DbValue> params{std::string(agent_id)};
  if (!containing.empty()) {
    scope +=
        " AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id"
        " AND lower(m.content) LIKE lower($2) ESCAPE '!')";
    params.emplace_back(like_anywhere(containing));
  }
  if (filter != InboxFilter::kAll) scope.append(" AND ").append(filter_sql(filter));
  std::vector<InboxRow> rows;
  PARLEY_TRY(query_keyset_page(c, table, scope, params, q,
                               [&](const Row& r) { rows.push_back(read_inbox_row(r)); }));
  return finish_page(std::move(rows), q.limit);
}

}  // namespace parley
