// Unicode-aware word splitting, the bottom of every text comparison: NFKC normalisation with
// Unicode case folding (ICU's NFKC_Casefold), then ICU word breaking (UAX #29), keeping segments
// that are words (letters, numbers, kana, ideographs). Runs of plain ASCII between spaces take an
// exact fast path that applies the same UAX #29 rules without ICU, so English text splits at
// memory speed. The words are not yet matching keys: text/normalizer.h folds plurals and is what
// the index and the matchers use.
// Thread-safe: ICU objects are per thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// Calls `emit` with each case-folded, NFKC-normalised word of `text`, in order. The view is valid
// only during the call. Invalid UTF-8 bytes are treated as separators.
void for_each_word(std::string_view text, const std::function<void(std::string_view)>& emit);

// The words of `text` as for_each_word gives them.
std::vector<std::string> tokenize_unstemmed(std::string_view text);

// Only ICU, no ASCII fast path (tests compare the two).
std::vector<std::string> tokenize_with_icu(std::string_view text);

// Whether `text` has at least one word (stops at the first).
bool has_token(std::string_view text);

// `word` without its diacritics (NFD, combining marks removed): "café" -> "cafe", "naïve" ->
// "naive". Plain ASCII comes back as it is.
std::string strip_diacritics(std::string_view word);

// NFKC with Unicode case folding, and runs of white space collapsed to one space and trimmed:
// "What is X?" and "what  is x?" give the same key (punctuation kept).
std::string fold_case(std::string_view text);

}  // namespace parley
