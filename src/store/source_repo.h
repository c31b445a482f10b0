// Knowledge sources and the per-agent knowledge version. The version moves (in the same
// transaction) whenever what an agent's retrieval index holds changes: a source trained, a trained
// source deleted or replaced. Stateless; every function runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct SourceRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  int64_t seq = 0;
  std::string type;  // "website", "file", "text", "qa", "workspace"
  std::optional<std::string> title;
  std::optional<std::string> url;
  std::optional<std::string> filename;
  std::optional<std::string> question;
  std::optional<std::string> question_key;
  std::optional<std::string> answer;
  std::optional<std::string> content;  // left empty by list queries that omit text
  int64_t characters = 0;
  std::string status = "pending";
  std::optional<std::string> error;
  std::optional<int64_t> lease_until;
  std::optional<int64_t> finished_at;
  std::optional<int64_t> trained_at;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

// How many of an agent's sources are in each status.
struct SourceCounts {
  int64_t pending = 0;
  int64_t processing = 0;
  int64_t trained = 0;
  int64_t failed = 0;
  int64_t total() const { return pending + processing + trained + failed; }
};

class SourceRepo {
 public:
  // Inserts with the next seq of the agent (sets `s.seq`): numbers are never reused, even after
  // the last source is deleted, and two inserts at once never share one.
  static Result<void> insert(Connection& c, SourceRecord& s);
  static Result<std::optional<SourceRecord>> find(Connection& c, std::string_view agent_id,
                                                  std::string_view id);
  // The agent's qa source whose question_key is `key`, if any.
  static Result<std::optional<SourceRecord>> find_question(Connection& c, std::string_view agent_id,
                                                           std::string_view key);
  // Newest first, without content (qa keeps question and answer).
  static Result<std::vector<SourceRecord>> list(Connection& c, std::string_view agent_id);
  // Every trained source of the agent with its text, oldest first (index rebuilds).
  static Result<std::vector<SourceRecord>> list_trained(Connection& c, std::string_view agent_id);
  // Rewrites the mutable fields: question, question_key, answer, content, characters, status,
  // error, lease_until, finished_at, trained_at, updated_at.
  static Result<void> update(Connection& c, const SourceRecord& s);
  static Result<bool> remove(Connection& c, std::string_view id);
  // Rewrites the title (a website page whose title changed).
  static Result<void> set_title(Connection& c, std::string_view id,
                                const std::optional<std::string>& title);

  static Result<SourceCounts> counts(Connection& c, std::string_view agent_id);
  // Characters of the agent's sources that are not failed (the plan limit counts these).
  static Result<int64_t> committed_characters(Connection& c, std::string_view agent_id);
  // Status of the source whose training ended last, if any ended.
  static Result<std::optional<std::string>> last_finished_status(Connection& c,
                                                                 std::string_view agent_id);

  // The oldest source waiting for a worker: pending, or processing with an expired lease.
  static Result<std::optional<SourceRecord>> next_claimable(Connection& c, int64_t now);
  // Moves the source to processing until `lease_until` if it is still claimable; false when
  // another worker took it first.
  static Result<bool> claim(Connection& c, std::string_view id, int64_t now, int64_t lease_until);
  // Extends the claim on a source still processing (a heartbeat); nothing when it is not.
  static Result<void> renew_lease(Connection& c, std::string_view id, int64_t lease_until);
  // Puts every processing source back to pending (a single-node restart).
  static Result<int64_t> requeue_processing(Connection& c, int64_t now);

  static Result<int64_t> version(Connection& c, std::string_view agent_id);
  // Moves the agent's knowledge version on by one and returns the new value.
  static Result<int64_t> bump_version(Connection& c, std::string_view agent_id);
};

}  // namespace parley
