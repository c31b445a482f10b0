// The stored embedding vectors of trained text sources' chunks (table chunk_embeddings): written
// by the trainer once per source and model, read when an agent's vector index is loaded. A
// vector is kept as float32 values, little-endian, in a BLOB; rows whose BLOB does not hold
// `dimensions` values are skipped as unreadable. A source's rows are deleted with it (foreign key).
// Stateless; every function runs on the connection it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/db.h"

namespace parley {

// One chunk's vector: the chunk is named by its source and its ordinal in chunk_text's order.
struct ChunkVector {
  std::string source_id;
  uint32_t chunk = 0;
  std::string text_hash;  // of the text that was embedded (knowledge/chunk_embedding.h)
  std::vector<float> values;
};

class ChunkEmbeddingRepo {
 public:
  // Replaces every stored vector of the source with `vectors`, all computed by `model`.
  static Result<void> replace_source(Connection& c, std::string_view agent_id,
                                     std::string_view source_id, std::string_view model,
                                     const std::vector<ChunkVector>& vectors, int64_t now);
  // The source's vectors of `model`, by chunk.
  static Result<std::vector<ChunkVector>> list_source(Connection& c, std::string_view source_id,
                                                      std::string_view model);
  // The vectors of `model` of the agent's trained sources, by source and chunk.
  static Result<std::vector<ChunkVector>> list_trained(Connection& c, std::string_view agent_id,
                                                       std::string_view model);
  // Up to `limit` of the agent's trained text sources (every type but qa) without a vector of
  // `model`, oldest first.
  static Result<std::vector<std::string>> sources_without(Connection& c, std::string_view agent_id,
                                                          std::string_view model, int64_t limit);
  // How many vectors of the source are stored, whatever their model.
  static Result<int64_t> count_source(Connection& c, std::string_view source_id);
};

// The BLOB of a vector, and back (nothing when the bytes are not `dimensions` float32 values).
std::string vector_bytes(const std::vector<float>& values);
std::optional<std::vector<float>> vector_of_bytes(std::string_view bytes, int64_t dimensions);

}  // namespace parley
