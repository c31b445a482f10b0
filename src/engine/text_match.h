// Small text helpers the retrieval engine uses to pick sentences and compare questions: Unicode
// case folding (ICU), word splitting, sentence splitting. Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parley {

// The words of `text`, case-folded, in order (letters and digits; other ASCII splits words).
std::vector<std::string> fold_words(std::string_view text);

// The words of `text` that carry meaning: folded words minus common English function words,
// plain English plurals made singular.
std::vector<std::string> content_words(std::string_view text);

// Dice overlap (0..1) of the sets of content words of two texts.
double content_overlap(std::string_view a, std::string_view b);

// Case-folded words joined by single spaces: "What's  the PRICE?" -> "what s the price".
std::string normalise_text(std::string_view text);

// Sentences of `text` in order, each trimmed, ending punctuation kept. Line breaks end sentences.
std::vector<std::string> split_sentences(std::string_view text);

}  // namespace parley
