// An English lexicon and thesaurus: whether a word is English (a WordNet lemma, an irregular form
// such as "mice" or "ran", or a regular inflection of a lemma such as "kayaks", "booked",
// "shipping", "cheaper"), and the synonyms of a word's frequent senses ("luggage" ~ "baggage",
// "buy" ~ "purchase"), single words only. The data is WordNet 3.0 from Debian's wordnet-base
// (Princeton's permissive licence), reduced at build time by scripts/gen-thesaurus.py and built
// into the binary; docs/decisions/thesaurus.md says which senses are kept and why.
// Words are looked up as given: callers pass lower-case a-z words (text/tokenizer.h gives them).
// Thread-safety: a Thesaurus is immutable once built, so any thread may use it. english() is
// built on first use (a function-local static: about 10 ms of CPU, 4.7 MB) and then shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "text/thesaurus_data.h"

namespace parley {

struct ThesaurusStats {
  size_t lemmas = 0;               // single-word lemmas of every part of speech
  size_t irregular_forms = 0;      // distinct inflections of the .exc files
  size_t words_with_synonyms = 0;  // lemmas that have at least one synonym
  size_t synonyms = 0;             // word-synonym pairs, parts of speech merged
  size_t data_bytes = 0;           // the embedded text, which the tables point into
  size_t heap_bytes = 0;           // an estimate of what the tables allocate
};

class Thesaurus {
 public:
  // Reads `data`, which must outlive the Thesaurus (the tables point into it).
  explicit Thesaurus(const ThesaurusData& data);

  // The WordNet data embedded in the binary, parsed on the first call.
  static const Thesaurus& english();

  // True for a lemma, an irregular form, or a regular inflection of a lemma of the part of speech
  // the ending belongs to (WordNet's "morphy" rules, plus the doubled consonant of "stopped" and
  // "shipping"): "booked" is a word, "childing" and "shiping" are not.
  bool is_word(std::string_view lower_word) const;

  // The synonyms of the word's frequent senses, nouns first, or nullptr. A lemma with synonyms
  // answers for itself; otherwise, part of speech by part of speech, a word that is no lemma of
  // that part takes its lemma's synonyms of that part: "bought" and "buying" (a noun lemma, but
  // no verb) give the verb "buy"'s, and "booking" does not take the noun "book"'s "volume".
  // The vector lives as long as the Thesaurus.
  const std::vector<std::string>* synonyms(std::string_view lower_word) const;

  // How common the word is in English: the times SemCor tagged its lemma (any sense), the most of
  // its lemmas' for an inflection; 0 for a word WordNet does not know or never saw used.
  uint32_t usage(std::string_view lower_word) const;

  // The lemma of an inflected word: an irregular form ("kept" -> "keep", "children" -> "child"),
  // a regular one ("refunds" -> "refund", "talking" -> "talk") or a comparative or superlative
  // ("cheaper" -> "cheap", which stemmers leave alone), read as an inflection even when the word
  // is a lemma too ("talking" -> "talk"); else the word itself when it is a lemma; empty for a
  // word WordNet does not know. The view points into the data or into `lower_word`.
  std::string_view base_form(std::string_view lower_word) const;

  // The lemma of a word Snowball's rules cannot bring to it: an irregular form or a comparative
  // or superlative of an adjective ("kept" -> "keep", "cheaper" -> "cheap"); empty otherwise.
  std::string_view irregular_base(std::string_view lower_word) const;

  ThesaurusStats stats() const;

 private:
  // The slot holding `lemma`, or the empty one it would take.
  size_t find_slot(std::string_view lemma) const;
  uint8_t parts_of_speech(std::string_view lemma) const;  // a bit set; 0 for no lemma
  uint32_t lemma_usage(std::string_view lemma) const;
  // The first lemma the .exc files give an irregular form, or empty.
  std::string_view exception_lemma(std::string_view lower_word) const;
  // The first base form the morphy rules give that is a lemma of one of `parts` (a bit set).
  std::string_view rule_lemma(std::string_view lower_word, uint8_t parts) const;
  const std::vector<std::string>* synonyms_as(std::string_view lemma, uint8_t pos) const;

  // The lemmas, their parts of speech, and an open-addressing hash table over them (slots_ hold
  // 1 + an index, 0 when empty): less than half the memory of an unordered_map, and faster to fill.
  std::vector<std::string_view> lemmas_;
  std::vector<uint8_t> lemma_pos_;
  std::vector<uint32_t> lemma_usage_;
  std::vector<uint32_t> slots_;
  // inflection -> "pos lemma..." (one entry per part of speech: "axes" is "ax" and "axis")
  std::unordered_multimap<std::string_view, std::string_view> exceptions_;
  std::unordered_map<std::string_view, std::vector<std::string>> synonyms_;  // every part of speech
  std::unordered_map<std::string_view, std::vector<std::string>> synonyms_by_pos_;  // "word pos"
  size_t data_bytes_ = 0;
};

// Thesaurus::english().is_word(lower_word).
bool is_english_word(std::string_view lower_word);

// Thesaurus::english().synonyms(lower_word).
const std::vector<std::string>* english_synonyms(std::string_view lower_word);

// Thesaurus::english().usage(lower_word).
uint32_t english_usage(std::string_view lower_word);

// Thesaurus::english().irregular_base(lower_word).
std::string_view english_irregular_base(std::string_view lower_word);

// Thesaurus::english().base_form(lower_word).
std::string_view english_base_form(std::string_view lower_word);

}  // namespace parley
