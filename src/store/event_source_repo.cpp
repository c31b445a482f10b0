#include "store/event_source_repo.h"

namespace parley {

namespace {
#define CONVERSATION_EVENT_COLUMNS \
  "id, agent_id, channel, page, country, created_at, handoff_requested_at, handoff_ticket, \
   live_chat_requested_at, live_chat_status"

ConversationEventRow read_conversation(const Row& r) {
  ConversationEventRow x;
  x.conversation_id = r.text(0);
  x.agent_id = r.text(1);
  x.channel = r.text(2);
  x.page = r.opt_text(3);
  x.country = r.opt_text(4);
  x.created_at = r.int64(5);
  x.handoff_requested_at = r.opt_int64(6);
  x.handoff_ticket = r.opt_text(7);
  x.live_chat_requested_at = r.opt_int64(8);
  x.live_chat_status = r.opt_text(9);
  return x;
}
}  // namespace

Result<std::vector<LeadRecord>> EventSourceRepo::latest_leads(Connection& c,
                                                              std::string_view agent_id,
                                                              int64_t limit) {
  std::vector<LeadRecord> out;
  PARLEY_TRY(c.query("SELECT " + std::string(LeadRepo::columns()) + " FROM leads WHERE agent_id = $1 "
                     "ORDER BY collected_at DESC, id DESC LIMIT $2",
                     {agent_id, limit}, [&](const Row& r) { out.push_back(LeadRepo::read_row(r)); }));
  return out;
}

Result<std::optional<LeadRecord>> EventSourceRepo::find_lead(Connection& c,
                                                             std::string_view agent_id,
                                                             std::string_view id) {
  std::optional<LeadRecord> out;
  PARLEY_TRY(c.query("SELECT " + std::string(LeadRepo::columns()) + " FROM leads WHERE agent_id = $1 AND id = $2",
                     {agent_id, id}, [&](const Row& r) { out = LeadRepo::read_row(r); }));
  return out;
}

Result<std::vector<ConversationEventRow>> EventSourceRepo::latest_conversations(
    Connection& c, std::string_view agent_id, ConversationEventKind kind, int64_t limit) {
  std::string_view sql;
  switch (kind) {
    case ConversationEventKind::kCreated:
      sql = "SELECT " CONVERSATION_EVENT_COLUMNS
            " FROM conversations WHERE agent_id = $1 "
            "ORDER BY created_at DESC, id DESC LIMIT $2";
      break;
    case ConversationEventKind::kHandoff:
      sql = "SELECT " CONVERSATION_EVENT_COLUMNS
            " FROM conversations WHERE agent_id = $1 "
            "AND handoff_requested_at IS NOT NULL ORDER BY handoff_requested_at DESC, id DESC "
            "LIMIT $2";
      break;
    case ConversationEventKind::kLiveChat:
      sql = "SELECT " CONVERSATION_EVENT_COLUMNS
            " FROM conversations WHERE agent_id = $1 "
            "AND live_chat_requested_at IS NOT NULL ORDER BY live_chat_requested_at DESC, id DESC "
            "LIMIT $2";
      break;
  }
  std::vector<ConversationEventRow> out;
  PARLEY_TRY(
      c.query(sql, {agent_id, limit}, [&](const Row& r) { out.push_back(read_conversation(r)); }));
  return out;
}

Result<std::optional<ConversationEventRow>> EventSourceRepo::find_conversation(
    Connection& c, std::string_view agent_id, std::string_view id) {
  std::optional<ConversationEventRow> out;
  PARLEY_TRY(c.query("SELECT " CONVERSATION_EVENT_COLUMNS
                     " FROM conversations WHERE agent_id = $1 AND id = $2",
                     {agent_id, id}, [&](const Row& r) { out = read_conversation(r); }));
  return out;
}

}  // namespace parley
