#include "knowledge/chunk_embedding.h"

#include "core/crypto.h"
#include "knowledge/chunker.h"

namespace parley {

std::string embedding_input(const std::optional<std::string>& title, std::string_view chunk) {
  if (!title || title->empty()) return std::string(chunk);
  std::string out = *title;
  out += "\n\n";
  out += chunk;
  return out;
}

std::string embedding_hash(std::string_view input) { return sha256_hex(input); }

std::vector<std::string> embedding_inputs(const std::optional<std::string>& title,
                                          std::string_view content) {
  std::vector<std::string> out;
  for (std::string_view piece : chunk_text(content)) out.push_back(embedding_input(title, piece));
  return out;
}

}  // namespace parley
