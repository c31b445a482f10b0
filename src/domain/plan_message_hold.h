// PlanMessageHold: one of the plan's messages counted ahead of a chat turn's write transaction,
// where writers run at once (Database::shared_by_nodes: PostgreSQL).
//
// Every turn of an account counts its message on one row, the account's month. Counted inside
// the turn's transaction, that row stays locked until the commit's WAL flush, and the account's
// turns queue on it one after another, across agents and nodes. Counted ahead, in a statement of
// its own (Database::write_volatile: autocommit, no wait for the flush), the row is held for that
// statement only. The count still refuses to pass the plan's limit in one statement, so the limit
// stays exact under concurrent turns. The turn's own durable commit flushes this count with it
// (it comes earlier in the WAL).
//
// The hold is taken by the check before the turn's engine runs (check_and_take): the statement
// that counts the account's month counts it only while the agent's month is below its cap and the
// agent's hour below its replies, so the turn's limits are checked and its message held in one
// statement. From then until its turn commits, the month's count includes that turn. A turn whose
// reply falls in the next month gives that hold back and takes one in the reply's month before
// its write (take), which refuses it there when that month is used up.
//
// A hold not kept gives its message back (written behind) when it is destroyed: ChatTurn drops
// it as soon as its write fails (the agent's monthly cap refused it, the database failed), or
// with the turn when it never reached its write (its engine failed or timed out, its stream was
// dropped). A turn that stored no reply (a team member took the conversation meanwhile) gives it
// back in its own transaction. A hold refused by take does not end the turn at once: its write
// runs its own checks first and refuses it where the month would have been counted
// (ChatTurn::commit_work).
// SQLite has one writer and no row to wait for: there the turn's transaction counts the month
// itself, as count_reply_within_limits_later does, and nothing is held.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "domain/usage.h"
#include "store/db.h"

namespace parley {

class PlanMessageHold {
 public:
  // Counts one message on the account's month of `now_ms`; 403 message_limit_reached when the
  // plan's `limit` is used up. nullptr (nothing held) where writers do not run at once.
  static Result<std::unique_ptr<PlanMessageHold>> take(Database& db, std::string account_id,
                                                       int64_t now_ms, int64_t limit);
  // Before a turn's engine runs: refuses it as check_reply_allowed does (reading the counts from
  // `read`, or from `known`), and where writers run at once counts the plan's message on the
  // month of `now_ms` in the same statement, the hold returned. nullptr (nothing held) elsewhere.
  static Result<std::unique_ptr<PlanMessageHold>> check_and_take(
      Database& db, Connection& read, std::string account_id, std::string_view agent_id,
      const ReplyLimits& limits, int64_t now_ms, UsageCounts* known);
  PlanMessageHold(const PlanMessageHold&) = delete;
  PlanMessageHold& operator=(const PlanMessageHold&) = delete;
  ~PlanMessageHold();

  // Gives the message back in the transaction of `c` (the turn stored no reply); kept() once that
  // transaction committed.
  Result<void> give_back_in(Connection& c) const;
  // Whether the message held is counted on the month of `now_ms`.
  bool of_month_of(int64_t now_ms) const { return month_ == month_period(now_ms); }
  // The turn's transaction committed: the message stays counted, or was given back with it.
  void kept() { kept_ = true; }

 private:
  PlanMessageHold(Database& db, std::string account_id, std::string month)
      : db_(db), account_id_(std::move(account_id)), month_(std::move(month)) {}

  Database& db_;
  std::string account_id_;
  std::string month_;
  bool kept_ = false;
};

}  // namespace parley
