// Knowledge gaps (docs/decisions/gaps.md): a visitor question whose agent reply was the fallback
// or low in confidence, got a thumbs-down, or whose conversation got a CSAT of 1 or 2. Gaps are
// grouped by meaning with the knowledge analyser (text/analyzer.h: the same stems, synonyms and
// spelling tolerance as retrieval), so "how much is a day pass?" and "day pass price" are one
// group. A group is answered in one step: "Answer this" adds (or updates) a `qa` source through
// the contract's Q&A rules, which the trainer then trains, and marks the group resolved, in one
// transaction. "Improve answer" does the same from any agent reply of a transcript. The visitor's
// thumbs on a reply are here too, since a thumbs-down makes a gap.
// Knows no HTTP; safe from many threads.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/sources.h"
#include "model/agent_settings.h"
#include "store/conversation_repo.h"
#include "store/gap_repo.h"
#include "store/services.h"
#include "text/analyzed_text.h"

namespace parley {

// How many of an agent's groups, most recently asked first, a new question is compared with.
inline constexpr size_t kGapGroupsCompared = 500;
// Two questions mean the same when this share (Dice) of their content words match.
inline constexpr double kGapSameMeaning = 0.75;
// A group's questions shown with it (its transcripts).
inline constexpr size_t kGapQuestionsShown = 50;

// The words of a question's key at most: a question's meaning is in its first words, and each
// question is compared with up to kGapGroupsCompared groups inside its turn's write.
inline constexpr size_t kGapTermsKept = 32;

// The analysed key of a question: its content lemmas, each once, in order (every lemma when it
// has no content word), the first kGapTermsKept of them.
std::vector<std::string> gap_terms(std::string_view question, const KnowledgeSettings& settings);
// The same from the question already analysed (a chat turn's message), when it was analysed in the
// settings' language; otherwise from its text.
std::vector<std::string> gap_terms(const AnalyzedText& question, const KnowledgeSettings& settings);
// Whether two keys mean the same: words match by lemma or stem, by a synonym (the thesaurus's in
// English, and the agent's `synonyms`), or by a spelling slip (retrieval's tolerance: 1 edit from
// 4 letters, 2 from 8); the matched share must reach kGapSameMeaning.
bool same_meaning(const std::vector<std::string>& a, const std::vector<std::string>& b,
                  const KnowledgeSettings& settings);

struct GapInput {
  std::string account_id;
  std::string agent_id;
  std::string conversation_id;
  std::string channel;
  std::string message_id;  // the visitor's question
  std::string question;
  std::optional<std::string> reply_id;
  std::string reason;  // "fallback" | "low_confidence" | "rated_down" | "low_csat"
  int64_t asked_at = 0;
  const AnalyzedText* analyzed = nullptr;  // the question analysed, when the caller has it
};

// In the caller's write: makes the question a gap (once), in the group of the same meaning or a
// new one; a resolved group asked again after its answer opens again.
Result<void> record_gap(Connection& c, Random& random, const GapInput& in,
                        const KnowledgeSettings& settings);

// In the chat turn's write: the reply's outcome makes its question a gap when it is "fallback" or
// "low_confidence". `analyzed` is the question as the turn analysed it.
// `recent`: the agent's recent groups, read earlier in the same write by read_reply_gap_groups
// (the question is then one this write inserted: nothing is read here, nothing waits).
Result<void> record_reply_gap(Connection& c, Random& random, const ConversationRecord& conv,
                              const MessageRecord& question, const MessageRecord& reply,
                              const KnowledgeSettings& settings, const AnalyzedText& analyzed,
                              const std::vector<GapGroupRecord>* recent = nullptr);
// When a reply of `outcome` makes a gap: the agent's recent groups, read without waiting
// (GapRepo::recent_groups_later) into `out`, for record_reply_gap. Nothing otherwise.
Result<void> read_reply_gap_groups(Connection& c, std::string_view agent_id,
                                   const std::optional<std::string>& outcome,
                                   std::vector<GapGroupRecord>& out);

// In the caller's write, after a conversation's CSAT changed: a score of 1 or 2 makes its first
// visitor question a gap; a better score takes that back.
Result<void> note_csat_gap(Connection& c, Random& random, const ConversationRecord& conv);

// The visitor's thumbs on an agent reply ("up", "down", or none to take it back). 404 unless the
// message is in the conversation; 400 naming `messageId` unless it is an agent reply (not a
// visitor's message nor a team member's). A thumbs-down makes the question before it a gap; a
// thumbs-up or none takes that gap back.
Result<MessageRecord> rate_reply(Services& s, const ConversationRecord& conv,
                                 std::string_view message_id,
                                 const std::optional<std::string>& rating);

struct GapDetail {
  GapGroupView group;
  std::vector<GapQuestion> questions;  // most recent first, at most kGapQuestionsShown
};

// A page of the agent's groups (404 unless the agent is the account's).
Result<Page<GapGroupView>> list_gap_groups(Connection& c, std::string_view account_id,
                                           std::string_view agent_id, GapStatus status,
                                           const PageQuery& q);
// One group with its questions; 404 unless it is the agent's and has a gap left.
Result<GapDetail> get_gap_group(Connection& c, std::string_view account_id,
                                std::string_view agent_id, std::string_view group_id);

struct GapAnswered {
  SourceAdded added;
  std::optional<GapDetail> gap;  // the group resolved, when there was one
};

// "Answer this": the pair (`question`, default the group's question; `answer`) added or updated as
// a `qa` source and the group resolved, in one transaction; the trainer is told after it.
// 400 naming `answer` or `question` as the Q&A rules do; 404 for another account's agent or group.
Result<GapAnswered> answer_gap(Services& s, SourceListener* listener, std::string_view account_id,
                               std::string_view agent_id, std::string_view group_id,
                               const std::optional<std::string>& question,
                               const std::string& answer);

// "Improve answer" from an agent reply of a transcript: the same, with the visitor question the
// reply answered (unless `question` is given); resolves that question's group when it is a gap.
// 404 unless the conversation is the account's and holds the message; 400 naming `messageId`
// unless it is an agent reply.
Result<GapAnswered> improve_answer(Services& s, SourceListener* listener,
                                   std::string_view account_id, std::string_view conversation_id,
                                   std::string_view message_id,
                                   const std::optional<std::string>& question,
                                   const std::string& answer);

}  // namespace parley
