// A text analysed once by the one analyser (text/analyzer.h): each of its words in every form a
// reader compares (the surface the tokenizer gives, the stem the retrieval index matches, the
// lemma the phrase matchers match, whether it is a stop word), and the lists the matchers read
// (every lemma in order, the content lemmas as a set, the normalised key). A chat turn builds one
// for its message (engine/turn_intents.h) and the intents, the knowledge's query, follow-ups, gaps
// and topics all read it instead of splitting the message again.
// The words are split once; `in(other)` gives the same words in another analyser's forms without
// splitting the text again (the intent phrases are English whatever the agent's language).
// Immutable once built; safe to share between threads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"

namespace parley {

class AnalyzedText {
 public:
  AnalyzedText(std::string_view text, const Analyzer& analyzer);

  // The same words in `other`'s forms (itself when `other` is this text's analyser).
  AnalyzedText in(const Analyzer& other) const;

  const std::string& text() const { return text_; }
  const Analyzer& analyzer() const { return *analyzer_; }
  // The tokenizer's words (text/tokenizer.h), before the analyser's rules.
  const std::vector<std::string>& tokens() const { return tokens_; }
  const std::vector<WordForms>& words() const { return words_; }

  // Every word's lemma, in order: text/normalizer.h's tokenize().
  const std::vector<std::string>& lemmas() const { return lemmas_; }
  // The lemmas of the words that are not stop words, in order: content_words().
  const std::vector<std::string>& content_lemmas() const { return content_lemmas_; }
  // Whether `lemma` is one of content_lemmas().
  bool has_content_lemma(std::string_view lemma) const;
  // The lemmas joined by single spaces: normalize_for_match().
  const std::string& key() const { return key_; }

 private:
  AnalyzedText(std::string text, std::vector<std::string> tokens, const Analyzer& analyzer);

  std::string text_;
  const Analyzer* analyzer_;
  std::vector<std::string> tokens_;
  std::vector<WordForms> words_;
  std::vector<std::string> lemmas_;
  std::vector<std::string> content_lemmas_;
  std::vector<std::string> content_set_;  // sorted, unique
  std::string key_;
};

}  // namespace parley
