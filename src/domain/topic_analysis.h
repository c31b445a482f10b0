// Topic analysis: a small deterministic analysis of a conversation's visitor messages that gives
// its topics (up to three keywords) and sentiment ("positive", "negative" or "neutral"). It runs
// only for agents whose `topicAnalysis` setting is true; otherwise topics stay empty and sentiment
// null. analyze_topics is a pure function; refresh_topics runs inside the caller's transaction and
// counts only the messages added since its last run (the running counts are stored with
// TopicRepo), so a turn costs the same at the thousandth message as at the first.
//
// The analysis (docs/decisions/data.md): the `user` messages are split into words by the one text
// analyser (text/analyzed_text.h, in the agent's language: every script, case and width folded),
// and a chat turn's own message is read from the turn's analysis rather than split again. Words
// shorter than four characters (two for ideographs and kana), the language's stop words and
// sentiment words are dropped; the rest are counted as written (folded). Topics are the three
// most frequent words (ties: earlier first appearance wins). Sentiment counts words of a fixed
// positive and a fixed negative English list (a negation — "not", "no", "never", "don't" —
// directly before a word flips it): more positive than negative is "positive", more negative is
// "negative", otherwise "neutral". A conversation without visitor messages has no topics and
// sentiment null.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/agent_settings.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"
#include "store/topic_repo.h"
#include "text/analyzed_text.h"

namespace parley {

struct TopicAnalysis {
  std::vector<std::string> topics;
  std::optional<std::string> sentiment;
};

TopicAnalysis analyze_topics(const std::vector<MessageRecord>& messages,
                             const Analyzer& analyzer = Analyzer::english());

// A message whose analysis the caller already has (the chat turn's own): its words are read from
// it, not split again.
struct TopicMessage {
  std::string_view message_id;
  const AnalyzedText* analyzed = nullptr;
};

// What a run of messages adds to a conversation's running counts: sentiment tallies and the
// candidate topic words, whose positions continue from `state.words`.
struct TopicDelta {
  TopicState state;                   // the running state with these messages counted
  std::vector<TopicWordCount> words;  // candidate words, in order of first appearance
};
TopicDelta count_topics(const TopicState& state, const std::vector<MessageRecord>& messages,
                        const Analyzer& analyzer, const std::optional<TopicMessage>& known = {});

// Recomputes and stores the conversation's topics and sentiment when the agent's topicAnalysis
// setting is true; does nothing otherwise.
Result<void> refresh_topics(Connection& c, const AgentSettings& settings,
                            std::string_view conversation_id,
                            const std::optional<TopicMessage>& known = {});

// True when the agent's settings have topicAnalysis: true.
bool topic_analysis_enabled(const AgentSettings& settings);

}  // namespace parley
