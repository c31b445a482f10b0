#include "domain/topic_analysis.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "core/json.h"
#include "store/conversation_queries.h"

namespace parley {

namespace {
constexpr std::string_view kStopWords[] = {
    "about",   "above",   "after", "again", "also",   "because", "been",   "before", "being",
    "between", "both",    "could", "does",  "doing",  "down",    "each",   "from",   "further",
    "have",    "having",  "hello", "here",  "into",   "just",    "like",   "more",   "most",
    "much",    "only",    "other", "over",  "please", "same",    "should", "some",   "such",
    "than",    "that",    "their", "them",  "then",   "there",   "these",  "they",   "this",
    "those",   "through", "under", "until", "very",   "want",    "were",   "what",   "when",
    "where",   "which",   "while", "will",  "with",   "would",   "your",   "yours"};

constexpr std::string_view kPositive[] = {
    "good",    "great",   "excellent", "love",    "thanks",    "thank",     "helpful",    "perfect",
    "awesome", "amazing", "happy",     "nice",    "fantastic", "wonderful", "glad",       "works",
    "solved",  "fast",    "easy",      "pleased", "brilliant", "best",      "appreciate", "cool"};

constexpr std::string_view kNegative[] = {
    "bad",    "terrible", "awful",   "hate",         "broken",    "angry",   "slow",     "problem",
    "issue",  "worst",    "useless", "disappointed", "refund",    "wrong",   "error",    "fail",
    "failed", "poor",     "annoyed", "frustrated",   "complaint", "unhappy", "horrible", "bug"};

constexpr std::string_view kNegations[] = {"not", "no", "never", "dont", "cannot"};

template <size_t N>
bool contains(const std::string_view (&list)[N], std::string_view w) {
  return std::find(std::begin(list), std::end(list), w) != std::end(list);
}

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '\'') continue;  // "don't" is "dont"
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      cur += static_cast<char>(c);
    else if (c >= 'A' && c <= 'Z')
      cur += static_cast<char>(c - 'A' + 'a');
    else if (!cur.empty())
      out.push_back(std::move(cur)), cur.clear();
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}
}  // namespace

TopicAnalysis analyze_topics(const std::vector<MessageRecord>& messages) {
  TopicAnalysis out;
  std::map<std::string, std::pair<int, size_t>> counts;  // word -> (count, first position)
  size_t position = 0;
  int positive = 0, negative = 0;
  bool any_user = false;
  for (const auto& m : messages) {
    if (m.role != "user") continue;
    any_user = true;
    auto words = words_of(m.content);
    for (size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i];
      bool negated = i > 0 && contains(kNegations, words[i - 1]);
      bool pos = contains(kPositive, w), neg = contains(kNegative, w);
      if (pos) (negated ? negative : positive) += 1;
      if (neg) (negated ? positive : negative) += 1;
      ++position;
      if (pos || neg || w.size() < 4 || contains(kStopWords, w)) continue;
      auto [it, inserted] = counts.try_emplace(w, 0, position);
      it->second.first += 1;
    }
  }
  if (!any_user) return out;
  std::vector<std::pair<std::string, std::pair<int, size_t>>> ranked(counts.begin(), counts.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.second.first != b.second.first) return a.second.first > b.second.first;
    return a.second.second < b.second.second;
  });
  for (size_t i = 0; i < ranked.size() && i < 3; ++i) out.topics.push_back(ranked[i].first);
  out.sentiment = positive > negative ? "positive" : negative > positive ? "negative" : "neutral";
  return out;
}

bool topic_analysis_enabled(const AgentRecord& agent) {
  rapidjson::Document doc;
  doc.Parse(agent.settings.data(), agent.settings.size());
  if (doc.HasParseError() || !doc.IsObject()) return false;
  auto it = doc.FindMember("topicAnalysis");
  return it != doc.MemberEnd() && it->value.IsBool() && it->value.GetBool();
}

Result<void> refresh_topics(Connection& c, const AgentRecord& agent,
                            std::string_view conversation_id) {
  if (!topic_analysis_enabled(agent)) return {};
  PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, conversation_id));
  TopicAnalysis a = analyze_topics(messages);
  JsonWriter w;
  w.begin_array();
  for (const auto& t : a.topics) w.string(t);
  w.end_array();
  return ConversationQueries::set_analysis(c, conversation_id, w.view(), a.sentiment);
}

}  // namespace parley
