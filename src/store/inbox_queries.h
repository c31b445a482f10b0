// The console's conversation list read as an inbox: each conversation with its visitor (the bound
// contact's name and email, else its lead's), the first visitor question as a preview, and the
// badges unanswered (a reply was the fallback, or the visitor's message is the last one), handed
// off (a hand-off or live chat was requested) and rated low (a thumbs-down, or a CSAT of 1 or 2),
// with a filter on each badge. Keyset-paged like every list (store/keyset.h).
// Stateless; runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "store/conversation_repo.h"
#include "store/keyset.h"

namespace parley {

enum class InboxFilter { kAll, kUnanswered, kHandedOff, kRatedLow };

struct InboxRow {
  ConversationRecord conversation;
  std::optional<std::string> visitor_name;
  std::optional<std::string> visitor_email;
  std::optional<std::string> preview;  // the first visitor question
  bool unanswered = false;
  bool handed_off = false;
  bool rated_low = false;
};

class InboxQueries {
 public:
  // The agent's conversations newest first; `containing` and `since` as ConversationQueries::list.
  static Result<Page<InboxRow>> list(Connection& c, std::string_view agent_id, const PageQuery& q,
                                     std::string_view containing, InboxFilter filter);
  // The condition `filter` adds to the list's scope ("" for kAll): how it is planned is tested.
  static std::string_view filter_sql(InboxFilter filter);
};

}  // namespace parley
