#include "engine/handoff_intent.h"

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include "text/normalizer.h"

namespace parley {

namespace {
// The phrases and the answer words below are compared in the shared normaliser's form
// (text/normalizer.h), so case, width, punctuation and plurals do not matter ("Humans?" asks for
// a "human"). Non-English text does not match, which leaves the decision to the knowledge or to
// the model.
constexpr std::array kPersonPhrases = {
    "human",
    "real person",
    "a person",
    "actual person",
    "representative",
    "live agent",
    "human agent",
    "support agent",
    "someone from your team",
    "someone from the team",
    "member of your team",
    "talk to someone",
    "speak to someone",
    "speak with someone",
    "talk with someone",
    "live chat",
    "real agent",
    "staff member",
};

constexpr std::array kYes = {"yes", "yeah", "yep", "sure", "ok", "okay", "please", "y"};

// Each entry of `list` as its normalised words, once.
template <size_t N>
std::vector<std::vector<std::string>> phrases_of(const std::array<const char*, N>& list) {
  std::vector<std::vector<std::string>> out;
  for (std::string_view phrase : list) out.push_back(tokenize(phrase));
  return out;
}

// Each entry of `list` as its one normalised word.
template <size_t N>
std::set<std::string> words_of(const std::array<const char*, N>& list) {
  std::set<std::string> out;
  for (std::string_view word : list)
    for (auto& w : tokenize(word)) out.insert(std::move(w));
  return out;
}
}  // namespace

bool asks_for_person(const AnalyzedText& message) {
  // Normalised once, on first use (thread-safe static initialisation).
  static const auto phrases = phrases_of(kPersonPhrases);
  const auto& words = message.lemmas();
  for (const auto& phrase : phrases)
    if (contains_phrase(words, phrase)) return true;
  return false;
}

std::optional<std::string> known_live_chat(const HandoffSettings& settings, std::string_view engine,
                                           bool offer_pending, const AnalyzedText& message) {
  if (!settings.live_chat) return std::nullopt;
  if (offer_pending && accepts_offer(message)) return "requested";
  if (engine != "openai" && asks_for_person(message)) return "offered";
  return std::nullopt;
}

bool accepts_offer(const AnalyzedText& message) {
  // A short agreement made only of agreeable words: "yes please", "sure, connect me". Anything
  // else ("ok what are your hours", "yes but not now") is another message.
  static constexpr std::array kAgreeable = {
      "yes",   "yeah",  "yep",     "sure", "ok",    "okay",  "please", "y",  "thanks",
      "thank", "you",   "connect", "me",   "go",    "ahead", "do",     "it", "that",
      "would", "great", "i'd",     "like", "love",  "to",    "i",      "a",  "person",
      "human", "with",  "someone", "talk", "speak", "chat"};
  static const auto yes = words_of(kYes);
  static const auto agreeable = words_of(kAgreeable);
  const auto& words = message.lemmas();
  if (words.empty() || words.size() > 8) return false;
  if (!yes.count(words.front())) return false;
  for (const auto& w : words)
    if (!agreeable.count(w)) return false;
  return true;
}

}  // namespace parley
