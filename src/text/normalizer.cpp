#include "text/normalizer.h"

#include <algorithm>
#include <array>
#include <set>

#include "text/tokenizer.h"

namespace parley {

namespace {
constexpr std::array<std::string_view, 48> kStopWords = {
    "a",     "an",    "and",   "are",   "as",   "at",   "be",  "but", "by",     "can",
    "do",    "does",  "for",   "from",  "has",  "have", "how", "i",   "if",     "in",
    "is",    "it",    "me",    "my",    "of",   "on",   "or",  "our", "please", "so",
    "that",  "the",   "their", "there", "this", "to",   "was", "we",  "what",   "when",
    "where", "which", "who",   "why",   "will", "with", "you", "your"};

bool is_stop_word(std::string_view w) {
  return std::find(kStopWords.begin(), kStopWords.end(), w) != kStopWords.end();
}
}  // namespace

std::string_view fold_plural(std::string_view w, std::string& buffer) {
  if (w.size() <= 3 || w.back() != 's') return w;
  for (char c : w)
    if (c < 'a' || c > 'z') return w;
  char before = w[w.size() - 2];
  if (before == 's' || before == 'u' || before == 'i') return w;
  if (w.size() > 4 && w.ends_with("ies")) {
    buffer.assign(w.substr(0, w.size() - 3));
    buffer.push_back('y');
    return buffer;
  }
  return w.substr(0, w.size() - 1);
}

void for_each_token(std::string_view text, const std::function<void(std::string_view)>& emit) {
  std::string buffer;
  for_each_word(text, [&](std::string_view w) { emit(fold_plural(w, buffer)); });
}

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> out;
  for_each_token(text, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

std::string normalize_for_match(std::string_view text) {
  std::string out;
  for_each_token(text, [&](std::string_view t) {
    if (!out.empty()) out.push_back(' ');
    out.append(t);
  });
  return out;
}

std::vector<std::string> content_words(std::string_view text) {
  std::vector<std::string> out;
  std::string buffer;
  // Function words are recognised before plurals fold ("does" is not the plural of "doe").
  for_each_word(text, [&](std::string_view w) {
    if (!is_stop_word(w)) out.emplace_back(fold_plural(w, buffer));
  });
  return out;
}

double content_overlap(std::string_view a, std::string_view b) {
  auto wa = content_words(a);
  auto wb = content_words(b);
  std::set<std::string> sa(wa.begin(), wa.end()), sb(wb.begin(), wb.end());
  if (sa.empty() || sb.empty()) return 0;
  size_t shared = 0;
  for (const auto& w : sa) shared += sb.count(w);
  return 2.0 * static_cast<double>(shared) / static_cast<double>(sa.size() + sb.size());
}

bool contains_phrase(const std::vector<std::string>& words,
                     const std::vector<std::string>& phrase) {
  if (phrase.empty() || phrase.size() > words.size()) return false;
  return std::search(words.begin(), words.end(), phrase.begin(), phrase.end()) != words.end();
}

}  // namespace parley
