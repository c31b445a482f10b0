// The vocabulary of one agent's index: every word the agent's knowledge contains, as written
// (folded) and as the term it matches by (its stem, text/analyzer.h), with how often it occurs.
// It turns text into term ids the same way for the knowledge and for a question, adds a group term
// wherever one of the agent's `synonyms` groups occurs (so "money back" in a question meets
// "refund" in the knowledge), and corrects a question's misspelt words against the knowledge's
// own words.
// The stems and words are interned in compact string tables (knowledge/string_table.h).
// Not thread-safe: AgentIndex guards it (reads share a lock; additions take it alone).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "knowledge/string_table.h"
#include "text/analyzed_text.h"
#include "text/analyzer.h"

namespace parley {

class ByteReader;
class ByteWriter;

inline constexpr uint32_t kNoTerm = UINT32_MAX;

// One word of a text, with the term it matches by (kNoTerm when the vocabulary lacks it).
struct TermToken {
  uint32_t term = kNoTerm;
  bool stop = false;
};

// One word of a question.
struct QueryWord {
  std::string surface;
  std::string stem;
  bool stop = false;
  uint32_t term = kNoTerm;                // its own term, when the knowledge has it
  std::vector<uint32_t> groups;           // synonym group terms of phrases it is part of
};

// A spelling correction: the knowledge's word the question most likely meant.
struct Correction {
  uint32_t term = kNoTerm;
  int distance = 0;
};

class TermVocabulary {
 public:
  // `synonyms`: groups of words or phrases, each group one meaning.
  TermVocabulary(const Analyzer& analyzer, const std::vector<std::vector<std::string>>& synonyms);
  TermVocabulary(TermVocabulary&&) = default;
  TermVocabulary& operator=(TermVocabulary&&) = default;
  TermVocabulary(const TermVocabulary&) = delete;
  TermVocabulary& operator=(const TermVocabulary&) = delete;

  const Analyzer& analyzer() const { return *analyzer_; }
  size_t term_count() const { return stems_.size(); }

  // The tokens of `text`, then into `groups` the group term of each synonym phrase found (as
  // find_groups reports them). learn() also gives new words terms and counts every word's
  // occurrence.
  void analyze(std::string_view text, std::vector<TermToken>& tokens, std::vector<uint32_t>& groups) const;
  void learn(std::string_view text, std::vector<TermToken>& tokens, std::vector<uint32_t>& groups);

  // The words of a question (analysed by this vocabulary's analyser), without changing the
  // vocabulary.
  std::vector<QueryWord> analyze_query(const AnalyzedText& text) const;

  // The term of a stem, or kNoTerm.
  uint32_t find_stem(std::string_view stem) const;
  // The term of a word as written (folded), or kNoTerm.
  uint32_t find_surface(std::string_view surface) const;

  // The knowledge's word closest to `surface` (a word the vocabulary lacks) within the edit
  // distance its length allows (1 from 4 letters, 2 from 8; letters are characters, not bytes),
  // the most frequent of the closest; kNoTerm when none is that close. Only words in the Latin
  // alphabet are corrected: in other scripts one changed letter is as often another word.
  // `live` says whether a term still counts (a removed source's words stay in the vocabulary).
  Correction correct(std::string_view surface,
                     const std::function<bool(uint32_t)>& live = [](uint32_t) { return true; }) const;

  size_t memory_bytes() const;
  void shrink_to_fit() {
    stems_.shrink();
    surface_words_.shrink();
    surfaces_.shrink_to_fit();
  }

  // The persisted form (knowledge/index_form.h): save() writes every term and word with its
  // count; load() reads them into a vocabulary just constructed with the same analyzer and
  // synonyms, and returns false when the bytes are not such a vocabulary's.
  void save(ByteWriter& out) const;
  bool load(ByteReader& in);

 private:
  // A word as written (its text is surface_words_.at(its index)).
  struct Surface {
    uint32_t term;
    uint32_t count;
    uint32_t letters;  // bit per letter a-z present
    uint16_t chars;    // characters (code points), at most 65535 counted
    bool stop;
  };

  uint32_t term_for_stem(std::string_view stem, bool create);
  // analyze() when `learner` is null, learn() when it is this vocabulary.
  void tokens_of(std::string_view text, TermVocabulary* learner, std::vector<TermToken>& tokens,
                 std::vector<uint32_t>& groups) const;
  // Calls `found(from, to, group)` for each phrase of a group matched that reaches past the words
  // its group already covers, [from, to) being the words it adds: each word is given a group
  // once, and a phrase inside a longer one of its group found with it is not reported again.
  void find_groups(const std::vector<uint32_t>& terms, const std::function<void(size_t, size_t, uint32_t)>& found) const;

  const Analyzer* analyzer_;
  StringTable stems_;          // term -> stem
  StringTable surface_words_;  // index in surfaces_ -> word as written (folded)
  std::vector<Surface> surfaces_;
  // Synonym phrases as a trie of term sequences: each node's children by term, and the group
  // terms of the phrases that end at it, each once. Matching walks it from each word, so a text
  // costs its words times the longest phrase, however many phrases share a beginning.
  struct PhraseNode {
    std::unordered_map<uint32_t, uint32_t> next;  // term -> node
    std::vector<uint32_t> groups;
  };
  std::vector<PhraseNode> phrase_nodes_;  // [0] the root; empty: no phrases
};

// Damerau-Levenshtein distance (adjacent transpositions count one) of two words, counted in
// characters (UTF-8 decoded), or `limit` + 1 once it exceeds `limit`.
int edit_distance(std::string_view a, std::string_view b, int limit);

}  // namespace parley
