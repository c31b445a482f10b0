// Word lists and comparisons built on the one text analyser (text/analyzer.h), for the matchers
// that compare short texts: the Q&A matcher's exact-question key, follow-up suggestions and the
// hand-off, booking, button, product, form and lead-form matchers. They compare lemmas, the
// analyser's lighter form: a phrase matched whole needs no stem to meet its inflections, and a
// stem would let "humane" ask for a "human". Every function takes the analyser of the agent's
// language, English by default (the built-in intent phrases are English).
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"

namespace parley {

// The lemmas of `text`'s words, in order.
std::vector<std::string> tokenize(std::string_view text, const Analyzer& analyzer = Analyzer::english());

// The lemmas of `text` joined by single spaces: case, width, punctuation, spacing and inflection
// ignored. Two questions are the same question when their normalised forms are equal.
std::string normalize_for_match(std::string_view text, const Analyzer& analyzer = Analyzer::english());

// The lemmas of the words that carry meaning: the language's stop words left out.
std::vector<std::string> content_words(std::string_view text, const Analyzer& analyzer = Analyzer::english());

// Dice overlap (0..1) of the sets of content words of two texts.
double content_overlap(std::string_view a, std::string_view b, const Analyzer& analyzer = Analyzer::english());

// Whether `phrase` (lemmas) occurs in `words` as a run of consecutive lemmas. An empty phrase
// occurs nowhere. Linear in the two lengths.
bool contains_phrase(const std::vector<std::string>& words, const std::vector<std::string>& phrase);

}  // namespace parley
