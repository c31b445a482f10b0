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
  return std::search(words.begin(), words.end(), phrase.begin(), phrase.end()) != words.end();
}

}  // namespace parley
