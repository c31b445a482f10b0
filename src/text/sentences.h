// Sentence splitting for picking the sentences of a knowledge chunk that answer a question: a
// sentence ends at '.', '!' or '?' followed by white space, at a line break, and at the
// full-width stops of Chinese and Japanese (。！？).
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parley {

// Where each sentence of `text` lies: [begin, end) byte offsets, trimmed, never empty, in order.
std::vector<std::pair<size_t, size_t>> sentence_spans(std::string_view text);

// The sentences of `text` (sentence_spans as strings), ending punctuation kept.
std::vector<std::string> split_sentences(std::string_view text);

}  // namespace parley
