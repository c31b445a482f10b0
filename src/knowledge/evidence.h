// How well a piece of knowledge answers a question. A question is planned into slots, one per
// informative word (stop words left out), each weighted by how informative it is (its IDF in the
// agent's knowledge; a word the knowledge lacks weighs most, since it is usually what the question
// is about) and each with the terms that may stand for it: its own stem, a synonym group's term,
// a spelling correction, the thesaurus' synonyms (each with a credit below 1). Coverage is the
// share of the slots' weight that a text's terms stand for; the key slot is the heaviest. The
// sentences of a chunk that answer are those that cover the question best, preferring, when the
// question asks how much, how many, how long or when, sentences that state a number.
// Pure functions over the caller's vocabulary; thread-safe when the vocabulary is not changing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/bm25.h"
#include "knowledge/term_vocabulary.h"

namespace parley {

// What kind of fact a question asks for, from its words ("how much", "when", "price", "last"):
// English only, other languages ask for kAny.
enum class AnswerKind { kAny, kQuantity, kTime };

struct QuerySlot {
  std::string word;
  double weight = 0;                        // IDF
  std::vector<WeightedTerm> alternatives;   // terms that stand for the word, with their credit
};

struct QueryPlan {
  std::vector<QuerySlot> slots;
  double total_weight = 0;
  size_t key_slot = 0;  // the heaviest slot
  AnswerKind kind = AnswerKind::kAny;

  bool empty() const { return slots.empty(); }
  // Every alternative of every slot, for BM25.
  std::vector<WeightedTerm> bm25_terms() const;
};

AnswerKind answer_kind(std::string_view question);

// Whether a text states what a question of that kind asks for: a number (digits or a number
// word) for a quantity; a number, a day or a month for a time; anything for kAny.
bool states_kind(std::string_view text, AnswerKind kind);

// Whether `word` after `previous` only shapes the question ("how long", "how much") rather than
// naming what it is about.
bool is_question_phrase(std::string_view previous, std::string_view word);

// The credit (0..1) a sorted term set gives each slot.
std::vector<double> slot_credits(const QueryPlan& plan, std::span<const uint32_t> terms);

// A slot counts as covered (the key word present) from this credit: its own word, a correction
// or a synonym; a partial match below it does not.
inline constexpr double kCoveredCredit = 0.5;

// Coverage (0..1) of the plan by per-slot credits.
double coverage(const QueryPlan& plan, std::span<const double> credits);

// Whether the text states a number (digits).
bool has_number(std::string_view text);

// A sentence of a chunk with its terms (sorted, unique; stop words left out, synonym groups in),
// as the index keeps them.
struct SentenceTerms {
  std::string_view text;
  std::span<const uint32_t> terms;
  bool heading = false;  // a heading line inside the chunk: context for the sentences after it
};

// The sentences of a chunk that answer best, in the chunk's order, and how much of the question
// they cover together with the chunk's context (its source's title and its heading).
struct SentencePick {
  std::string text;
  double coverage = 0;  // by the sentences chosen (those beside the best counting half)
  double sentence = 0;  // by the best sentence alone
  bool key_covered = false;
};

SentencePick pick_sentences(const QueryPlan& plan, const std::vector<SentenceTerms>& sentences,
                            std::span<const uint32_t> context_terms, size_t max_sentences);

}  // namespace parley
