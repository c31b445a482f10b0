// Splits a source's text into chunks, the units the retrieval index scores and a reply quotes.
// Paragraphs are kept together up to the target size; a longer paragraph is cut at sentence ends,
// else at spaces, else at a UTF-8 character boundary. A heading (a one-line paragraph, or the
// first line of one, of at most 8 words that does not end a sentence nor state a number or a
// "label: value": "Cabin classes", "## Pets") is never the last paragraph of a chunk: it stays
// with the paragraph it introduces, and every chunk under it carries it as its `heading`, so a
// paragraph cut in pieces keeps its topic.
// Pure functions; thread-safe.
#pragma once

#include <string_view>
#include <vector>

namespace parley {

inline constexpr size_t kChunkTargetBytes = 1000;

struct Chunk {
  std::string_view text;     // a view into the source text, trimmed, non-empty
  std::string_view heading;  // the heading the chunk falls under (a view too), or empty
};

// Chunks of `text`, in order, each at most `target` bytes unless a single UTF-8 character is
// longer.
std::vector<Chunk> chunk_sections(std::string_view text, size_t target = kChunkTargetBytes);

// The texts of chunk_sections(text, target).
std::vector<std::string_view> chunk_text(std::string_view text, size_t target = kChunkTargetBytes);

// Whether a line reads as a heading: short, few words, no number, no "label: value", and not
// ending a sentence (a full stop, also a full-width one).
bool is_heading_line(std::string_view line);

}  // namespace parley
