#include "domain/sources.h"

#include "core/json.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "text/tokenizer.h"

namespace parley {

namespace {
Result<void> check_text(const std::optional<std::string>& value, std::string_view field,
                        size_t max_chars) {
  if (!value) return ApiError::invalid("'" + std::string(field) + "' is required.");
  if (is_blank(*value)) return ApiError::invalid("'" + std::string(field) + "' must not be empty.");
  if (utf8_length(*value) > max_chars)
    return ApiError::invalid("'" + std::string(field) + "' must be at most " +
                             std::to_string(max_chars) + " characters.");
  return {};
}

Result<void> check_optional(const std::optional<std::string>& value, std::string_view field,
                            size_t max_chars) {
  if (value && utf8_length(*value) > max_chars)
    return ApiError::invalid("'" + std::string(field) + "' must be at most " +
                             std::to_string(max_chars) + " characters.");
  return {};
}

std::optional<std::string> non_empty(const std::optional<std::string>& v) {
  if (!v || is_blank(*v)) return std::nullopt;
  return v;
}

int64_t characters_of(const NewSource& n) {
  if (n.type == "qa")
    return static_cast<int64_t>(utf8_length(*n.question) + utf8_length(*n.answer));
  return static_cast<int64_t>(utf8_length(*n.content));
}

Result<AgentRecord> find_agent(Connection& c, std::string_view account_id,
                               std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find(c, account_id, agent_id));
  if (!a) return ApiError::not_found("No agent " + std::string(agent_id) + " in this account.");
  return std::move(*a);
}

}  // namespace

// Training while any source is pending or processing, else the outcome of the training that
// ended last (error or trained), else untrained.
Result<SourceCounts> settle_agent_status(Connection& c, AgentRecord& a) {
  PARLEY_ASSIGN_OR_RETURN(auto counts, SourceRepo::counts(c, a.id));
  if (counts.pending + counts.processing > 0) {
    a.status = "training";
  } else {
    PARLEY_ASSIGN_OR_RETURN(auto last, SourceRepo::last_finished_status(c, a.id));
    if (!last)
      a.status = "untrained";
    else
      a.status = *last == "failed" ? "error" : "trained";
  }
  PARLEY_TRY(AgentRepo::update(c, a));
  return counts;
}

Result<void> check_character_limit(Connection& c, std::string_view account_id,
                                   std::string_view agent_id, int64_t released, int64_t added) {
  PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, account_id));
  if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
  int64_t limit = effective_limits(account->plan, account->overrides).training_characters;
  PARLEY_ASSIGN_OR_RETURN(int64_t used, SourceRepo::committed_characters(c, agent_id));
  if (used - released + added > limit)
    return ApiError{ErrorCode::kCharacterLimitExceeded,
                    "This source has " + std::to_string(added) + " characters; the agent uses " +
                        std::to_string(used - released) + " of its " + std::to_string(limit) +
                        " training characters."};
  return {};
}

std::string_view outcome_name(AddOutcome outcome) {
  switch (outcome) {
    case AddOutcome::kCreated:
      return "created";
    case AddOutcome::kUpdated:
      return "updated";
    case AddOutcome::kUnchanged:
      return "unchanged";
  }
  return "";
}

Result<void> validate_new_source(const NewSource& n) {
  if (n.type != "text" && n.type != "qa" && n.type != "website" && n.type != "file" &&
      n.type != "workspace")
    return ApiError::invalid("'type' must be one of text, qa, website, file, workspace.");
  if (n.type == "qa") {
    PARLEY_TRY(check_text(n.question, "question", kMaxQuestionChars));
    return check_text(n.answer, "answer", kMaxContentChars);
  }
  PARLEY_TRY(check_optional(n.title, "title", kMaxTitleChars));
  return check_text(n.content, "content", kMaxContentChars);
}

Result<SourceAdded> add_source_in(Connection& c, Services& s, std::string_view account_id,
                                  std::string_view agent_id, const NewSource& n,
                                  int64_t& removed_version) {
  PARLEY_TRY(validate_new_source(n));
  const int64_t characters = characters_of(n);
  const int64_t now = s.clock.now_ms();
  std::optional<std::string> key;
  if (n.type == "qa") key = fold_case(*n.question);
  SourceAdded out;
  removed_version = 0;
  // The agent's row is rewritten below and the training characters it owns are checked.
  PARLEY_TRY(AgentRepo::lock(c, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto agent, find_agent(c, account_id, agent_id));
  std::optional<SourceRecord> existing;
  if (key) {
    PARLEY_ASSIGN_OR_RETURN(existing, SourceRepo::find_question(c, agent.id, *key));
  }
  if (existing && existing->answer == n.answer) {
    out.outcome = AddOutcome::kUnchanged;
    out.source = std::move(*existing);
    PARLEY_ASSIGN_OR_RETURN(out.training, SourceRepo::counts(c, agent.id));
    return out;
  }
  if (existing) {
    SourceRecord& src = *existing;
    PARLEY_TRY(check_character_limit(c, account_id, agent.id,
                                     src.status == "failed" ? 0 : src.characters, characters));
    if (src.status == "trained") {
      agent.characters -= src.characters;
      PARLEY_ASSIGN_OR_RETURN(removed_version, SourceRepo::bump_version(c, agent.id));
    }
    src.question = n.question;
    src.question_key = key;
    src.answer = n.answer;
    src.characters = characters;
    src.status = "pending";
    src.error.reset();
    src.lease_until.reset();
    src.updated_at = now;
    PARLEY_TRY(SourceRepo::update(c, src));
    out.outcome = AddOutcome::kUpdated;
    out.source = src;
  } else {
    PARLEY_TRY(check_character_limit(c, account_id, agent.id, 0, characters));
    SourceRecord src;
    src.id = new_id(s.random, "src_");
    src.agent_id = agent.id;
    src.account_id = agent.account_id;
    src.type = n.type;
    if (n.type == "qa") {
      src.question = n.question;
      src.question_key = key;
      src.answer = n.answer;
    } else {
      src.title = non_empty(n.title);
      src.url = non_empty(n.url);
      src.filename = non_empty(n.filename);
      src.content = n.content;
    }
    src.characters = characters;
    src.status = "pending";
    src.created_at = src.updated_at = now;
    PARLEY_TRY(SourceRepo::insert(c, src));
    PARLEY_TRY(AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, 1));
    out.outcome = AddOutcome::kCreated;
    out.source = std::move(src);
  }
  PARLEY_ASSIGN_OR_RETURN(out.training, settle_agent_status(c, agent));
  return out;
}

void announce_source(SourceListener* listener, std::string_view agent_id, const SourceAdded& added,
                     int64_t removed_version) {
  if (!listener || added.outcome == AddOutcome::kUnchanged) return;
  if (removed_version) listener->source_removed(agent_id, added.source.id, removed_version);
  listener->sources_queued();
}

Result<SourceAdded> add_source(Services& s, std::string_view account_id, std::string_view agent_id,
                               const NewSource& n, SourceListener* listener) {
  PARLEY_TRY(validate_new_source(n));
  SourceAdded out;
  int64_t removed_version = 0;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(out, add_source_in(c, s, account_id, agent_id, n, removed_version));
    return {};
  }));
  announce_source(listener, agent_id, out, removed_version);
  return out;
}

Result<SourceListing> list_sources(Connection& c, std::string_view account_id,
                                   std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto agent, find_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, account_id));
  SourceListing out;
  PARLEY_ASSIGN_OR_RETURN(out.sources, SourceRepo::list(c, agent.id));
  for (const auto& src : out.sources) {
    if (src.status == "pending")
      ++out.training.pending;
    else if (src.status == "processing")
      ++out.training.processing;
    else if (src.status == "trained")
      ++out.training.trained;
    else
      ++out.training.failed;
    // Summed from the same read as the statuses, so the two always agree (the agent's row holds
    // the same figure, but a separate read may see a different commit).
    if (src.status == "trained") out.characters_used += src.characters;
  }
  out.characters_limit =
      account ? effective_limits(account->plan, account->overrides).training_characters : 0;
  return out;
}

Result<SourceCounts> delete_source(Services& s, std::string_view account_id,
                                   std::string_view agent_id, std::string_view source_id,
                                   SourceListener* listener) {
  SourceCounts out;
  int64_t version = 0;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    version = 0;
    PARLEY_TRY(AgentRepo::lock(c, agent_id));  // read-modify-write of the agent
    PARLEY_ASSIGN_OR_RETURN(auto agent, find_agent(c, account_id, agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto src, SourceRepo::find(c, agent.id, source_id));
    if (!src)
      return ApiError::not_found("No source " + std::string(source_id) + " for this agent.");
    if (src->status == "trained") {
      agent.characters -= src->characters;
      PARLEY_ASSIGN_OR_RETURN(version, SourceRepo::bump_version(c, agent.id));
    }
    PARLEY_TRY(SourceRepo::remove(c, src->id));
    PARLEY_TRY(AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, -1));
    PARLEY_ASSIGN_OR_RETURN(out, settle_agent_status(c, agent));
    return {};
  }));
  if (listener && version) listener->source_removed(agent_id, source_id, version);
  return out;
}

Result<std::optional<SourceRecord>> claim_next_source(Services& s, int64_t lease_ms) {
  std::optional<SourceRecord> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out.reset();
    const int64_t now = s.clock.now_ms();
    PARLEY_ASSIGN_OR_RETURN(auto next, SourceRepo::next_claimable(c, now));
    if (!next) return {};
    PARLEY_ASSIGN_OR_RETURN(bool claimed, SourceRepo::claim(c, next->id, now, now + lease_ms));
    if (!claimed) return {};
    next->status = "processing";
    next->lease_until = now + lease_ms;
    out = std::move(next);
    return {};
  }));
  return out;
}

Result<TrainingFinished> finish_training(Services& s, const SourceRecord& claimed,
                                         const std::optional<std::string>& error) {
  TrainingFinished out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out = TrainingFinished{};
    // Before the source is read: a change of the source (a new answer) holds the same lock.
    PARLEY_TRY(AgentRepo::lock(c, claimed.agent_id));  // read-modify-write of the agent
    PARLEY_ASSIGN_OR_RETURN(auto src, SourceRepo::find(c, claimed.agent_id, claimed.id));
    if (!src || src->status != "processing" || src->content != claimed.content ||
        src->question != claimed.question || src->answer != claimed.answer)
      return {};
    PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, src->agent_id));
    if (!agent) return {};
    const int64_t now = s.clock.now_ms();
    src->status = error ? "failed" : "trained";
    src->error = error;
    src->lease_until.reset();
    src->finished_at = now;
    src->updated_at = now;
    if (!error) {
      src->trained_at = now;
      agent->characters += src->characters;
      agent->trained_at = now;
      PARLEY_ASSIGN_OR_RETURN(out.version, SourceRepo::bump_version(c, agent->id));
    }
    PARLEY_TRY(SourceRepo::update(c, *src));
    PARLEY_TRY(settle_agent_status(c, *agent));
    out.applied = true;
    out.source = std::move(*src);
    return {};
  }));
  return out;
}

Result<int64_t> requeue_unfinished(Services& s) {
  int64_t n = 0;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(n, SourceRepo::requeue_processing(c, s.clock.now_ms()));
    return {};
  }));
  return n;
}

}  // namespace parley
