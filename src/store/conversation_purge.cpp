#include "store/conversation_purge.h"

#include "store/conversation_repo.h"
#include "store/gap_repo.h"

namespace parley {

namespace {
// Deletes the events whose id satisfies `where` (on event_id, parameters $1.. as given) and every
// delivery of them, deliveries first (they name the event by the same id).
Result<PurgeCounts> purge_events_where(Connection& c, std::string_view where, Params params) {
  PurgeCounts n;
  PARLEY_ASSIGN_OR_RETURN(
      n.deliveries,
      c.execute("DELETE FROM webhook_deliveries WHERE " + std::string(where), params));
  PARLEY_ASSIGN_OR_RETURN(
      n.events, c.execute("DELETE FROM event_outbox WHERE " + std::string(where), params));
  return n;
}
}  // namespace

Result<PurgeCounts> purge_events_of(Connection& c, std::string_view event_id) {
  return purge_events_where(c, "event_id = $1", {event_id});
}

Result<PurgeCounts> purge_conversation(Connection& c, std::string_view id,
                                       std::optional<int64_t> inactive_before) {
  PurgeCounts n;
  std::string account_id, agent_id;
  PARLEY_TRY(c.query("SELECT account_id, agent_id FROM conversations WHERE id = $1", {id},
                     [&](const Row& r) {
                       account_id = r.text(0);
                       agent_id = r.text(1);
                     }));
  if (account_id.empty()) return n;
  PARLEY_ASSIGN_OR_RETURN(auto messages,
                          ConversationRepo::remove(c, account_id, id, inactive_before));
  if (!messages) return n;  // gone meanwhile, or active again
  n.conversations = 1;
  n.messages = *messages;
  PARLEY_ASSIGN_OR_RETURN(auto events, purge_events_of(c, id));
  n += events;
  // Hand-offs and live chats: "<conversation id>:<ms>", a range of the event_id index.
  std::string first = std::string(id) + ":";
  std::string past = std::string(id) + ";";
  PARLEY_ASSIGN_OR_RETURN(auto timed,
                          purge_events_where(c, "event_id >= $1 AND event_id < $2", {first, past}));
  n += timed;
  // Its gaps went with its messages; a group left without a question goes too (its analysed
  // terms came from a question of this conversation).
  PARLEY_TRY(GapRepo::remove_empty_groups(c, agent_id));
  return n;
}

Result<std::vector<std::string>> conversations_inactive_since(Connection& c,
                                                              std::string_view agent_id,
                                                              int64_t before_ms, int64_t limit) {
  std::vector<std::string> ids;
  PARLEY_TRY(
      c.query("SELECT id FROM conversations WHERE agent_id = $1 AND last_activity_at < $2 "
              "ORDER BY last_activity_at, created_at, id LIMIT $3",
              {agent_id, before_ms, limit}, [&](const Row& r) { ids.push_back(r.text(0)); }));
  return ids;
}

}  // namespace parley
