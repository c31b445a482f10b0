// Deleting whole conversations with everything that hangs off them: their messages and topic
// state (ON DELETE CASCADE), the outbox events that carry the conversation's id
// (conversation.created, hand-offs and live chats, whose ids are "cnv_…:<ms>") and those events'
// webhook deliveries with their attempts, and the agent's conversation and message counters. Used
// by the retention purge and by erasure. Leads, form submissions, bookings and return requests of
// the conversation are not conversations: they stay, with no conversation (ON DELETE SET NULL),
// unless the caller deletes them too. Stateless; runs inside the caller's write transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/db.h"

namespace parley {

struct PurgeCounts {
  int64_t conversations = 0;
  int64_t messages = 0;
  int64_t events = 0;
  int64_t deliveries = 0;

  PurgeCounts& operator+=(const PurgeCounts& o) {
    conversations += o.conversations;
    messages += o.messages;
    events += o.events;
    deliveries += o.deliveries;
    return *this;
  }
};

// Deletes the conversation (any account's) and what hangs off it; zero counts when it is gone.
// With `inactive_before`, only while its last activity is before then (checked by the DELETE
// itself, on the row as a concurrent turn left it).
Result<PurgeCounts> purge_conversation(Connection& c, std::string_view id,
                                       std::optional<int64_t> inactive_before = {});

// Deletes the outbox events whose id is `event_id` and their deliveries: {events, deliveries}.
Result<PurgeCounts> purge_events_of(Connection& c, std::string_view event_id);

// The ids of the agent's conversations whose last activity is before `before_ms`, oldest first,
// at most `limit` (the retention purge's next batch; purge_conversation with the same
// `inactive_before` deletes each only if no turn made it active since).
Result<std::vector<std::string>> conversations_inactive_since(Connection& c,
                                                              std::string_view agent_id,
                                                              int64_t before_ms, int64_t limit);

}  // namespace parley
