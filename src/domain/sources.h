// Knowledge sources of an agent: adding (text always new; a Q&A pair created, updated or left
// unchanged by its case-folded question), listing with training progress, deleting, and the
// training steps the trainer runs (claim, finish, requeue). Each operation is one transaction that
// also keeps the agent's row (status, trainedAt, characters, counts.sources) in step, and checks
// the plan's training-character limit against every source that is not failed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "knowledge/source_listener.h"
#include "store/agent_repo.h"
#include "store/services.h"
#include "store/source_repo.h"

namespace parley {

inline constexpr size_t kMaxTitleChars = 200;
inline constexpr size_t kMaxQuestionChars = 200;
inline constexpr size_t kMaxContentChars = 1'000'000;  // content and answer, in code points

struct NewSource {
  std::string type;  // "text", "qa", and for operators also "website", "file", "workspace"
  std::optional<std::string> title;
  std::optional<std::string> url;
  std::optional<std::string> filename;
  std::optional<std::string> content;
  std::optional<std::string> question;
  std::optional<std::string> answer;
};

enum class AddOutcome { kCreated, kUpdated, kUnchanged };
std::string_view outcome_name(AddOutcome outcome);

struct SourceAdded {
  SourceRecord source;
  AddOutcome outcome;
  SourceCounts training;
};

struct SourceListing {
  std::vector<SourceRecord> sources;
  SourceCounts training;
  int64_t characters_used = 0;
  int64_t characters_limit = 0;
};

// 400 invalid_request naming the field when the source is malformed.
Result<void> validate_new_source(const NewSource& source);

Result<SourceAdded> add_source(Services& s, std::string_view account_id, std::string_view agent_id,
                               const NewSource& source, SourceListener* listener);
// add_source()'s steps for a caller that adds a source inside its own write transaction (a gap
// answered): the addition, then, once that transaction committed, the trainer told.
// `removed_version` is set when a trained pair was replaced.
Result<SourceAdded> add_source_in(Connection& c, Services& s, std::string_view account_id,
                                  std::string_view agent_id, const NewSource& source,
                                  int64_t& removed_version);
void announce_source(SourceListener* listener, std::string_view agent_id, const SourceAdded& added,
                     int64_t removed_version);
Result<SourceListing> list_sources(Connection& c, std::string_view account_id,
                                   std::string_view agent_id);
// The agent's training progress after the deletion.
Result<SourceCounts> delete_source(Services& s, std::string_view account_id,
                                   std::string_view agent_id, std::string_view source_id,
                                   SourceListener* listener);

// Training steps.
// Takes the oldest waiting source for a worker for `lease_ms`.
Result<std::optional<SourceRecord>> claim_next_source(Services& s, int64_t lease_ms);
struct TrainingFinished {
  bool applied = false;  // false when the source was deleted or changed meanwhile
  SourceRecord source;   // as stored now
  int64_t version = 0;   // the agent's knowledge version after it
};
// Marks the claimed source trained, or failed with `error`, unless it changed since `claimed`.
Result<TrainingFinished> finish_training(Services& s, const SourceRecord& claimed,
                                         const std::optional<std::string>& error);
// Puts sources left processing by a stopped node back in the queue.
Result<int64_t> requeue_unfinished(Services& s);

// Steps of the operations above for a caller that changes sources inside its own write
// transaction (the crawler), with the agent's row locked first (AgentRepo::lock).
// The agent's status from its sources (training, else the outcome of the training that ended
// last, else untrained), written to its row; returns the counts it was decided from.
Result<SourceCounts> settle_agent_status(Connection& c, AgentRecord& agent);
// 403 character_limit_exceeded when the agent's sources that are not failed, less `released`
// (a source being replaced), plus `added` would pass the plan's training characters.
Result<void> check_character_limit(Connection& c, std::string_view account_id,
                                   std::string_view agent_id, int64_t released, int64_t added);

}  // namespace parley
