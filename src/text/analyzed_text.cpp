#include "text/analyzed_text.h"

#include <algorithm>

#include "text/tokenizer.h"

namespace parley {

AnalyzedText::AnalyzedText(std::string_view text, const Analyzer& analyzer)
    : AnalyzedText(std::string(text), tokenize_unstemmed(text), analyzer) {}

AnalyzedText::AnalyzedText(std::string text, std::vector<std::string> tokens,
                           const Analyzer& analyzer)
    : text_(std::move(text)), analyzer_(&analyzer), tokens_(std::move(tokens)) {
  Analyzer::count_pass();
  words_.reserve(tokens_.size());
  lemmas_.reserve(tokens_.size());
  for (const auto& token : tokens_) {
    words_.push_back(analyzer.forms(token));
    const WordForms& w = words_.back();
    lemmas_.push_back(w.lemma);
    if (!w.stop) content_lemmas_.push_back(w.lemma);
    if (!key_.empty()) key_.push_back(' ');
    key_ += w.lemma;
  }
  content_set_ = content_lemmas_;
  std::sort(content_set_.begin(), content_set_.end());
  content_set_.erase(std::unique(content_set_.begin(), content_set_.end()), content_set_.end());
}

AnalyzedText AnalyzedText::in(const Analyzer& other) const {
  if (&other == analyzer_) return *this;
  return AnalyzedText(text_, tokens_, other);
}

bool AnalyzedText::has_content_lemma(std::string_view lemma) const {
  return std::binary_search(content_set_.begin(), content_set_.end(), lemma);
}

}  // namespace parley
