// The one text normaliser: how the retrieval index, the Q&A matcher, follow-up suggestions and
// every intent matcher (hand-off, booking, buttons, products, forms, the lead form) turn text into
// comparable words. A word is the tokenizer's (text/tokenizer.h: NFKC, Unicode case folding,
// UAX #29 word breaks) with English plurals of plain ASCII words folded to the singular
// ("refunds" -> "refund", "deliveries" -> "delivery"; words ending in ss, us or is stay). A rule
// changed here changes every matcher and the index together, so a question and the text it asks
// about keep meeting. Pure functions; thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// The matching form of one tokenizer word: plurals folded. Returns `word` or a view into `buffer`.
std::string_view fold_plural(std::string_view word, std::string& buffer);

// Calls `emit` with each normalised word of `text`, in order. The view is valid only during the
// call.
void for_each_token(std::string_view text, const std::function<void(std::string_view)>& emit);

// The normalised words of `text`, in order.
std::vector<std::string> tokenize(std::string_view text);

// The words of `text` joined by single spaces: case, width, punctuation, spacing and plurals
// ignored. Two questions are the same question when their normalised forms are equal.
std::string normalize_for_match(std::string_view text);

// The normalised words that carry meaning: common English function words ("the", "what", "is")
// left out.
std::vector<std::string> content_words(std::string_view text);

// Dice overlap (0..1) of the sets of content words of two texts.
double content_overlap(std::string_view a, std::string_view b);

// Whether `phrase` (normalised words) occurs in `words` as a run of consecutive words. An empty
// phrase occurs nowhere.
bool contains_phrase(const std::vector<std::string>& words, const std::vector<std::string>& phrase);

}  // namespace parley
