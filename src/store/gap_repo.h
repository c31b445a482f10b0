// Knowledge gaps and their groups (migration 0042): the visitor questions an agent did not answer
// well, each in one group of questions that mean the same. Deciding what is a gap and which group
// it joins is domain/gaps.h's; this is the SQL. What a group shows (its first question, count,
// channels, first and last asked) is read from its gaps, never kept apart from them.
// Stateless; every function runs on the connection it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/db.h"
#include "store/keyset.h"

namespace parley {

struct GapGroupRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  std::string terms;  // the analysed key, lemmas joined by spaces
  int64_t created_at = 0;
  int64_t last_asked_at = 0;
  std::optional<int64_t> resolved_at;
  std::optional<std::string> answer_source_id;
};

struct GapRecord {
  std::string message_id;  // the visitor's question
  std::string group_id;
  std::string agent_id;
  std::string conversation_id;
  std::optional<std::string> reply_id;
  std::string reason;  // "fallback" | "low_confidence" | "rated_down" | "low_csat"
  std::string channel;
  int64_t asked_at = 0;
};

// A group as it is shown: the record and what its gaps say.
struct GapGroupView {
  GapGroupRecord group;
  std::string question;  // the first question asked, as written
  int64_t count = 0;
  std::vector<std::string> channels;  // sorted
  int64_t first_asked_at = 0;
  int64_t last_asked_at = 0;
};

// One question of a group, with its conversation (a link to the transcript).
struct GapQuestion {
  GapRecord gap;
  std::string question;
};

enum class GapStatus { kAny, kOpen, kResolved };

class GapRepo {
 public:
  static Result<void> insert_group(Connection& c, const GapGroupRecord& g);
  // Adds the gap unless its question is a gap already; true when added.
  static Result<bool> insert_gap(Connection& c, const GapRecord& gap);
  // insert_gap without waiting, for a question no gap can name yet (a message this transaction
  // inserted): it is added.
  static Result<void> insert_new_gap(Connection& c, const GapRecord& gap);
  // Moves the group's last asked time forward, and reopens it when the question was asked after it
  // was resolved.
  static Result<void> touch_group(Connection& c, std::string_view group_id, int64_t asked_at);
  // Removes the question's gap when it was one for `reason`; true when removed.
  static Result<bool> remove_gap(Connection& c, std::string_view message_id,
                                 std::string_view reason);
  // Removes the gaps of `reason` of a conversation; how many.
  static Result<int64_t> remove_conversation_gaps(Connection& c, std::string_view conversation_id,
                                                  std::string_view reason);
  // The gap of a question, if it is one.
  static Result<std::optional<GapRecord>> find_gap(Connection& c, std::string_view message_id);
  // The agent's groups asked about most recently (at most `limit`), to match a new question with.
  static Result<std::vector<GapGroupRecord>> recent_groups(Connection& c, std::string_view agent_id,
                                                           size_t limit);
  // recent_groups without waiting (store/pipelined.h query_later): `out` is filled when the answer
  // comes back, with the next statement that waits; it must live until then.
  static Result<void> recent_groups_later(Connection& c, std::string_view agent_id, size_t limit,
                                          std::vector<GapGroupRecord>& out);
  static Result<std::optional<GapGroupRecord>> find_group(Connection& c, std::string_view agent_id,
                                                          std::string_view id);
  // A page of the agent's groups that still have a gap, newest first.
  static Result<Page<GapGroupRecord>> list(Connection& c, std::string_view agent_id,
                                           GapStatus status, const PageQuery& q);
  // What the group's gaps say; nothing when it has none left.
  static Result<std::optional<GapGroupView>> view(Connection& c, const GapGroupRecord& g);
  // The group's questions, most recent first, at most `limit`.
  static Result<std::vector<GapQuestion>> questions(Connection& c, std::string_view group_id,
                                                    size_t limit);
  // Deletes the group when no gap is left in it (its questions were taken back or deleted with
  // their conversations), so that nothing derived from them stays.
  static Result<void> remove_if_empty(Connection& c, std::string_view group_id);
  // The same for every group of the agent: for whoever deletes conversations in bulk (retention,
  // erasure), after the deletion, in its transaction.
  static Result<int64_t> remove_empty_groups(Connection& c, std::string_view agent_id);
  static Result<void> resolve(Connection& c, std::string_view group_id, int64_t at,
                              std::string_view answer_source_id);
};

}  // namespace parley
