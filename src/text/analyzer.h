// The one text analyser: how the retrieval index, the Q&A matcher, follow-up suggestions and every
// intent matcher (hand-off, booking, buttons, products, forms, the lead form) turn text into
// comparable terms. A term is a tokenizer word (text/tokenizer.h: NFKC, Unicode case folding,
// UAX #29 word breaks, so every script splits into words; in English without diacritics, so
// "cafe" meets "café") reduced to its stem by the Snowball
// stemmer of the agent's language ("refunds", "refunded", "refunding" -> "refund"), and flagged
// when it is one of that language's stop words ("the", "what", "is"). A language without a
// Snowball stemmer keeps its words whole. A rule changed here changes the index and every matcher
// together, so a question and the text it asks about keep meeting.
//
// French, Italian and Catalan elisions are split off ("l'hôtel" is "hôtel").
// Thread-safety: an Analyzer is immutable and shared (for_language() returns one per language for
// the life of the process); stemming uses a Snowball stemmer of the calling thread's own.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// The language of an agent that has not set `language`.
inline constexpr std::string_view kDefaultLanguage = "en";

// One tokenizer word in every form the analyser gives it (text/analyzed_text.h keeps a text's).
struct WordForms {
  std::string surface;  // the tokenizer's word as the analyser compares it (see surface_of)
  std::string stem;     // the retrieval index's term
  std::string lemma;    // the matchers' lighter form
  bool stop = false;    // a stop word of the language
};

// One word of a text as the analyser sees it.
struct AnalyzedWord {
  std::string_view surface;  // the tokenizer's word (folded)
  std::string_view stem;     // the matching term
  bool stop = false;         // a stop word of the language: carries no meaning alone
};

class Analyzer {
 public:
  // The analyser of an ISO 639-1 code ("en", "fr", …); null when the code is not one that
  // supported_language() accepts.
  static const Analyzer* for_language(std::string_view code);
  // English: the analyser of the built-in intent phrases.
  static const Analyzer& english();
  // for_language(code), or English for a code it does not know (stored settings are read
  // leniently; writes are validated).
  static const Analyzer& for_language_or_english(std::string_view code);

  // Whether `code` is a language the analyser knows: every language with a Snowball stemmer, and
  // a list of others that are analysed without stemming (Chinese, Japanese, Korean, Thai…).
  static bool supported_language(std::string_view code);
  // The accepted codes, comma-separated (for error messages and docs).
  static std::string supported_languages();

  std::string_view language() const { return language_; }
  bool has_stemmer() const { return !algorithm_.empty(); }

  bool is_stop_word(std::string_view folded_word) const;
  // The stem of a folded word: `word` itself or a view into `buffer`.
  std::string_view stem(std::string_view folded_word, std::string& buffer) const;
  // The lighter form short phrases are matched by, where a stem would join words of different
  // meaning ("humane" and "human"): an English word's dictionary lemma (WordNet: "talking" ->
  // "talk", "refunds" -> "refund"; a word WordNet lacks stays as written); in another language,
  // its stem.
  std::string_view lemma(std::string_view folded_word, std::string& buffer) const;

  // Every form of one tokenizer word (text/tokenizer.h's for_each_word gives them).
  WordForms forms(std::string_view token) const;

  // How many times any analyser has gone over a text (for_each_word, terms, content_terms,
  // lemmas) on the calling thread since it started, and how many texts text/analyzed_text.h
  // analysed there: tests count them to prove a chat turn analyses its message once.
  static uint64_t passes();
  static void count_pass();

  // Calls `emit` with each word of `text`, in order. The views are valid only during the call.
  void for_each_word(std::string_view text, const std::function<void(const AnalyzedWord&)>& emit) const;

  // The stems of `text`'s words, in order (stop words included).
  std::vector<std::string> terms(std::string_view text) const;
  // The stems of the words that are not stop words, in order.
  std::vector<std::string> content_terms(std::string_view text) const;
  // The lemmas of `text`'s words, in order; with `content_only`, stop words left out.
  std::vector<std::string> lemmas(std::string_view text, bool content_only = false) const;

 private:
  Analyzer(std::string language, std::string algorithm, const std::vector<std::string_view>& stops);
  // A tokenizer word as the analyser compares it: typographic apostrophes made plain, and in
  // English diacritics dropped. `word` itself or a view into `buffer`.
  std::string_view surface_of(std::string_view word, std::string& buffer) const;

  std::string language_;
  std::string algorithm_;  // Snowball's name; empty: no stemming
  std::vector<std::string_view> stop_words_;  // sorted
};

}  // namespace parley
