// Unicode-aware tokenisation for the retrieval index: NFKC normalisation with Unicode case folding
// (ICU's NFKC_Casefold), then ICU word breaking (UAX #29), keeping segments that are words (letters,
// numbers, kana, ideographs), then English plurals of plain ASCII words folded to the singular.
// Runs of plain ASCII between spaces take an exact fast path that
// applies the same UAX #29 rules without ICU, so English text indexes at memory speed.
// Thread-safe: ICU objects are per thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// Calls `emit` with each normalised word of `text`, in order. The view is valid only during the
// call. Invalid UTF-8 bytes are treated as separators.
void for_each_token(std::string_view text, const std::function<void(std::string_view)>& emit);

std::vector<std::string> tokenize(std::string_view text);

// Whether `text` has at least one word (stops at the first).
bool has_token(std::string_view text);

// The words of `text` joined by single spaces: case, width, punctuation and spacing ignored.
// Two Q&A questions match exactly when their normalised forms are equal.
std::string normalize_for_match(std::string_view text);

// NFKC with Unicode case folding, and runs of white space collapsed to one space and trimmed:
// "What is X?" and "what  is x?" give the same key (punctuation kept).
std::string fold_case(std::string_view text);

// Only ICU, no ASCII fast path and no plural folding; and both paths without plural folding
// (tests compare the two).
std::vector<std::string> tokenize_with_icu(std::string_view text);
std::vector<std::string> tokenize_unstemmed(std::string_view text);

}  // namespace parley
