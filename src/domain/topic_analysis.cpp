#include "domain/topic_analysis.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>

#include "core/json.h"
#include "store/conversation_queries.h"

namespace parley {

namespace {
constexpr std::string_view kPositive[] = {
    "good",    "great",   "excellent", "love",    "thanks",    "thank",     "helpful",    "perfect",
    "awesome", "amazing", "happy",     "nice",    "fantastic", "wonderful", "glad",       "works",
    "solved",  "fast",    "easy",      "pleased", "brilliant", "best",      "appreciate", "cool"};

constexpr std::string_view kNegative[] = {
    "bad",    "terrible", "awful",   "hate",         "broken",    "angry",   "slow",     "problem",
    "issue",  "worst",    "useless", "disappointed", "refund",    "wrong",   "error",    "fail",
    "failed", "poor",     "annoyed", "frustrated",   "complaint", "unhappy", "horrible", "bug"};

constexpr std::string_view kNegations[] = {"not",  "no",     "never", "don't",
                                           "dont", "cannot", "can't", "won't"};

template <size_t N>
bool contains(const std::string_view (&list)[N], std::string_view w) {
  return std::find(std::begin(list), std::end(list), w) != std::end(list);
}

// Long enough to name a topic: four characters, or two of a script written without spaces
// (ideographs and kana, from U+2E80), whose words are short.
bool topic_length(std::string_view word) {
  size_t chars = 0;
  bool wide = false;
  for (size_t i = 0; i < word.size(); ++i) {
    auto c = static_cast<unsigned char>(word[i]);
    if ((c & 0xC0) == 0x80) continue;
    ++chars;
    // A three- or four-byte character is U+0800 and above; from 0xE2 0xBA (U+2E80) on, wide.
    if (c >= 0xE3 ||
        (c == 0xE2 && i + 1 < word.size() && static_cast<unsigned char>(word[i + 1]) >= 0xBA))
      wide = true;
  }
  return chars >= (wide ? 2 : 4);
}
}  // namespace

TopicDelta count_topics(const TopicState& state, const std::vector<MessageRecord>& messages,
                        const Analyzer& analyzer, const std::optional<TopicMessage>& known) {
  TopicDelta out{state, {}};
  TopicState& st = out.state;
  std::unordered_map<std::string, size_t> index;  // word -> its place in out.words
  for (const auto& m : messages) {
    st.analysed_seq = std::max(st.analysed_seq, m.seq);
    if (m.role != "user") continue;
    st.any_user = true;
    std::optional<AnalyzedText> own;
    const bool reuse = known && known->analyzed != nullptr && known->message_id == m.id &&
                       &known->analyzed->analyzer() == &analyzer;
    const auto& words = reuse ? known->analyzed->words() : own.emplace(m.content, analyzer).words();
    for (size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i].surface;
      bool negated = i > 0 && contains(kNegations, words[i - 1].surface);
      bool pos = contains(kPositive, w), neg = contains(kNegative, w);
      if (pos) (negated ? st.negative : st.positive) += 1;
      if (neg) (negated ? st.positive : st.negative) += 1;
      ++st.words;
      if (pos || neg || words[i].stop || !topic_length(w)) continue;
      auto [it, inserted] = index.try_emplace(w, out.words.size());
      if (inserted) out.words.push_back({w, 0, st.words});
      out.words[it->second].count += 1;
    }
  }
  return out;
}

namespace {
std::optional<std::string> sentiment_of(const TopicState& s) {
  if (!s.any_user) return std::nullopt;
  return s.positive > s.negative ? "positive" : s.negative > s.positive ? "negative" : "neutral";
}
}  // namespace

TopicAnalysis analyze_topics(const std::vector<MessageRecord>& messages, const Analyzer& analyzer) {
  TopicDelta d = count_topics(TopicState{}, messages, analyzer);
  TopicAnalysis out;
  if (!d.state.any_user) return out;
  std::stable_sort(d.words.begin(), d.words.end(), [](const auto& a, const auto& b) {
    return a.count > b.count;  // ties keep first-appearance order
  });
  for (size_t i = 0; i < d.words.size() && i < 3; ++i) out.topics.push_back(d.words[i].word);
  out.sentiment = sentiment_of(d.state);
  return out;
}

bool topic_analysis_enabled(const AgentSettings& settings) { return settings.topic_analysis; }

Result<void> refresh_topics(Connection& c, const AgentSettings& settings,
                            std::string_view conversation_id,
                            const std::optional<TopicMessage>& known) {
  if (!topic_analysis_enabled(settings)) return {};
  PARLEY_ASSIGN_OR_RETURN(auto stored, TopicRepo::state(c, conversation_id));
  TopicState state = stored.value_or(TopicState{});
  PARLEY_ASSIGN_OR_RETURN(auto added,
                          ConversationRepo::messages_after(c, conversation_id, state.analysed_seq));
  if (stored && added.empty()) return {};
  TopicDelta d = count_topics(
      state, added, Analyzer::for_language_or_english(settings.knowledge.language), known);
  PARLEY_TRY(TopicRepo::add_words(c, conversation_id, d.words));
  PARLEY_TRY(TopicRepo::save_state(c, conversation_id, d.state));
  TopicAnalysis a;
  if (d.state.any_user) {
    PARLEY_ASSIGN_OR_RETURN(a.topics, TopicRepo::top_words(c, conversation_id, 3));
  }
  a.sentiment = sentiment_of(d.state);
  JsonWriter w;
  w.begin_array();
  for (const auto& t : a.topics) w.string(t);
  w.end_array();
  return ConversationQueries::set_analysis(c, conversation_id, w.view(), a.sentiment);
}

}  // namespace parley
