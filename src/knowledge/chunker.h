// Splits a source's text into chunks, the units the retrieval index scores and a reply quotes.
// Paragraphs are kept together up to the target size; a longer paragraph is cut at sentence ends,
// else at spaces, else at a UTF-8 character boundary. Pure functions; thread-safe.
#pragma once

#include <string_view>
#include <vector>

namespace parley {

inline constexpr size_t kChunkTargetBytes = 1000;

// Views into `text`, in order, each trimmed and non-empty, each at most `target` bytes unless a
// single UTF-8 character is longer.
std::vector<std::string_view> chunk_text(std::string_view text, size_t target = kChunkTargetBytes);

}  // namespace parley
