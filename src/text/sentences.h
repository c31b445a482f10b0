// Sentence splitting for picking the sentences of a knowledge chunk that answer a question.
// Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parley {

// Sentences of `text` in order, each trimmed, ending punctuation kept. Line breaks end sentences.
std::vector<std::string> split_sentences(std::string_view text);

}  // namespace parley
