// Read-side queries over conversations for the data API and the admin CLI: the keyset-paged list,
// lookups by id alone (operator tools), and storing the topic analysis. Writes of conversations
// and messages go through ConversationRepo. Stateless; runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/conversation_repo.h"
#include "store/keyset.h"

namespace parley {

// A LIKE pattern (with `ESCAPE '!'`) matching `text` anywhere, its own %, _ and ! taken literally
// (! is the escape: a backslash would depend on PostgreSQL's standard_conforming_strings).
std::string like_anywhere(std::string_view text);

class ConversationQueries {
 public:
  // The agent's conversations newest first (created_at, id); `since` filters on last activity.
  // With `containing`, only those with a message containing that text, case-insensitively (ASCII
  // letters on SQLite, every letter on PostgreSQL); read message by message, so for a console,
  // not for hot paths.
  static Result<Page<ConversationRecord>> list(Connection& c, std::string_view agent_id,
                                               const PageQuery& q,
                                               std::string_view containing = {});
  // The agent's conversations whose live chat is requested or active, oldest first (at most 200):
  // the console's live-chat inbox.
  static Result<std::vector<ConversationRecord>> live_chats(Connection& c,
                                                            std::string_view agent_id);
  // Messages written by visitors and API users in the account's conversations since `since_ms`,
  // per UTC day (days since the epoch), days without any left out: the console's usage chart.
  static Result<std::vector<std::pair<int64_t, int64_t>>> user_messages_per_day(
      Connection& c, std::string_view account_id, int64_t since_ms);
  static Result<void> set_analysis(Connection& c, std::string_view id, std::string_view topics_json,
                                   const std::optional<std::string>& sentiment);
};

}  // namespace parley
