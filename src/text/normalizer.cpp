#include "text/normalizer.h"

#include <algorithm>
#include <set>

namespace parley {

std::vector<std::string> tokenize(std::string_view text, const Analyzer& analyzer) {
  return analyzer.lemmas(text);
}

std::string normalize_for_match(std::string_view text, const Analyzer& analyzer) {
  std::string out;
  for (const auto& lemma : analyzer.lemmas(text)) {
    if (!out.empty()) out.push_back(' ');
    out.append(lemma);
  }
  return out;
}

std::vector<std::string> content_words(std::string_view text, const Analyzer& analyzer) {
  return analyzer.lemmas(text, true);
}

double content_overlap(std::string_view a, std::string_view b, const Analyzer& analyzer) {
  auto wa = content_words(a, analyzer);
  auto wb = content_words(b, analyzer);
  std::set<std::string> sa(wa.begin(), wa.end()), sb(wb.begin(), wb.end());
  if (sa.empty() || sb.empty()) return 0;
  size_t shared = 0;
  for (const auto& w : sa) shared += sb.count(w);
  return 2.0 * static_cast<double>(shared) / static_cast<double>(sa.size() + sb.size());
}

bool contains_phrase(const std::vector<std::string>& words, const std::vector<std::string>& phrase) {
  if (phrase.empty() || phrase.size() > words.size()) return false;
  if (phrase.size() == 1) return std::find(words.begin(), words.end(), phrase[0]) != words.end();
  // Knuth-Morris-Pratt: each word compared a bounded number of times, so a message of one word
  // repeated against a long phrase of that word costs its length, not its length times the
  // phrase's (std::search).
  std::vector<size_t> border(phrase.size(), 0);  // longest proper border of phrase[0..i]
  for (size_t i = 1, k = 0; i < phrase.size(); ++i) {
    while (k > 0 && phrase[i] != phrase[k]) k = border[k - 1];
    if (phrase[i] == phrase[k]) ++k;
    border[i] = k;
  }
  for (size_t i = 0, k = 0; i < words.size(); ++i) {
    while (k > 0 && words[i] != phrase[k]) k = border[k - 1];
    if (words[i] == phrase[k] && ++k == phrase.size()) return true;
  }
  return false;
}

}  // namespace parley
