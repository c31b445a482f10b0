#include "engine/handoff_intent.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace parley {

namespace {
// Lower-case ASCII words of the message (other bytes separate words; non-English text does not
// match, which leaves the decision to the knowledge or to the model).
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '\'') {
      word.push_back(static_cast<char>(std::tolower(c)));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool contains_phrase(const std::vector<std::string>& words,
                     const std::vector<std::string>& wanted) {
  if (wanted.empty() || wanted.size() > words.size()) return false;
  for (size_t i = 0; i + wanted.size() <= words.size(); ++i) {
    bool all = true;
    for (size_t j = 0; j < wanted.size() && all; ++j) all = words[i + j] == wanted[j];
    if (all) return true;
  }
  return false;
}

constexpr std::array kPersonPhrases = {
    "human",
    "humans",
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
}  // namespace

bool asks_for_person(std::string_view message) {
  // The phrases split once, on first use (thread-safe static initialisation).
  static const std::vector<std::vector<std::string>> phrases = [] {
    std::vector<std::vector<std::string>> out;
    for (std::string_view phrase : kPersonPhrases) out.push_back(words_of(phrase));
    return out;
  }();
  auto words = words_of(message);
  for (const auto& phrase : phrases)
    if (contains_phrase(words, phrase)) return true;
  return false;
}

std::optional<std::string> known_live_chat(const HandoffSettings& settings, std::string_view engine,
                                           bool offer_pending, std::string_view message) {
  if (!settings.live_chat) return std::nullopt;
  if (offer_pending && accepts_offer(message)) return "requested";
  if (engine != "openai" && asks_for_person(message)) return "offered";
  return std::nullopt;
}

bool accepts_offer(std::string_view message) {
  // A short agreement made only of agreeable words: "yes please", "sure, connect me". Anything
  // else ("ok what are your hours", "yes but not now") is another message.
  static constexpr std::array kAgreeable = {
      "yes",   "yeah",  "yep",     "sure", "ok",    "okay",  "please", "y",  "thanks",
      "thank", "you",   "connect", "me",   "go",    "ahead", "do",     "it", "that",
      "would", "great", "i'd",     "like", "love",  "to",    "i",      "a",  "person",
      "human", "with",  "someone", "talk", "speak", "chat"};
  auto words = words_of(message);
  if (words.empty() || words.size() > 8) return false;
  if (std::find(kYes.begin(), kYes.end(), words.front()) == kYes.end()) return false;
  for (const auto& w : words)
    if (std::find(kAgreeable.begin(), kAgreeable.end(), w) == kAgreeable.end()) return false;
  return true;
}

}  // namespace parley
