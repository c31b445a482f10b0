// What is embedded for a chunk of a trained text source, and the hash stored with its vector:
// the source's title (when it has one) and the chunk's text, so that a vector whose text or
// title changed since it was computed is recognised as stale and not used. Pure functions;
// thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// The text sent to the embeddings endpoint for one chunk: "title\n\nchunk", or the chunk alone.
std::string embedding_input(const std::optional<std::string>& title, std::string_view chunk);

// SHA-256 (hex) of an embedding input, as stored beside the vector.
std::string embedding_hash(std::string_view input);

// The embedding inputs of every chunk of a source's content, in chunk_text's order.
std::vector<std::string> embedding_inputs(const std::optional<std::string>& title,
                                          std::string_view content);

}  // namespace parley
