// The conversations of an agent read for an export, a batch at a time in creation order
// (created_at, id), each with its messages and the fields migration 0041 added (the bound contact,
// each reply's outcome, confidence and rating). A batch is one read of conversations and one of
// their messages, so an export of any size holds one batch in memory. Stateless; runs on the
// connection it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/conversation_repo.h"

namespace parley {

struct ExportedMessage {
  MessageRecord message;
  std::optional<std::string> outcome;  // 'answered' | 'low_confidence' | 'fallback'
  std::optional<double> confidence;
  std::optional<std::string> rating;  // 'up' | 'down'
  std::optional<int64_t> rated_at;
};

struct ExportedConversation {
  ConversationRecord conversation;
  std::optional<std::string> contact_id;
  std::vector<ExportedMessage> messages;
};

// Where a batch starts: after this conversation in (created_at, id) order.
struct ExportKey {
  int64_t created_at = 0;
  std::string id;  // "" with created_at = from: the first batch, from `from` on
};

class ExportQueries {
 public:
  // At most `limit` of the agent's conversations created before `to_ms` that come after `after`,
  // oldest first, with their messages in order.
  static Result<std::vector<ExportedConversation>> batch(Connection& c, std::string_view agent_id,
                                                         const ExportKey& after, int64_t to_ms,
                                                         int64_t limit);
};

}  // namespace parley
