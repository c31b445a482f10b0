#include "engine/text_match.h"

#include <unicode/unistr.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

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

bool word_byte(unsigned char c) { return c >= 0x80 || std::isalnum(c); }

// Plain English plurals of ASCII words to the singular, as the index does: "refunds" -> "refund",
// "deliveries" -> "delivery"; words ending in ss, us or is stay.
std::string singular(const std::string& w) {
  if (w.size() <= 3 || w.back() != 's') return w;
  for (unsigned char c : w)
    if (c >= 0x80) return w;
  std::string_view end = std::string_view(w).substr(w.size() - 2);
  if (end == "ss" || end == "us" || end == "is") return w;
  if (w.size() > 4 && w.ends_with("ies")) return w.substr(0, w.size() - 3) + "y";
  return w.substr(0, w.size() - 1);
}

std::string fold(std::string_view text) {
  bool ascii = true;
  for (unsigned char c : text) ascii = ascii && c < 0x80;
  if (ascii) {  // the common case, without ICU's UTF-16 round trip
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }
  std::string out;
  icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())))
      .foldCase()
      .toUTF8String(out);
  return out;
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}
}  // namespace

std::vector<std::string> fold_words(std::string_view text) {
  std::string folded = fold(text);
  std::vector<std::string> words;
  std::string cur;
  for (unsigned char c : folded) {
    if (word_byte(c)) {
      cur.push_back(static_cast<char>(c));
    } else if (!cur.empty()) {
      words.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

std::vector<std::string> content_words(std::string_view text) {
  auto words = fold_words(text);
  std::erase_if(words, [](const std::string& w) { return is_stop_word(w); });
  for (auto& w : words) w = singular(w);
  return words;
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

std::string normalise_text(std::string_view text) {
  std::string out;
  for (const auto& w : fold_words(text)) {
    if (!out.empty()) out.push_back(' ');
    out += w;
  }
  return out;
}

std::vector<std::string> split_sentences(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  auto flush = [&](size_t end) {
    std::string s = trim(text.substr(start, end - start));
    if (!s.empty()) out.push_back(std::move(s));
    start = end;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      flush(i + 1);
    } else if ((c == '.' || c == '!' || c == '?') &&
               (i + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[i + 1])))) {
      flush(i + 1);
    }
  }
  flush(text.size());
  return out;
}

}  // namespace parley
