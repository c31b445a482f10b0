// The embedding vectors of one agent's chunks, for ranking them by cosine similarity to a
// question's vector: one row per chunk, every row of one dimension, held normalised in one
// contiguous float32 matrix (a search is one pass of dot products). Each row keeps where its
// chunk's text lies in its source's content, so a hit comes back as a RetrievedChunk as BM25's
// do. A vector is only accepted for the text it was computed from: its chunk must exist and the
// hash stored with it must match the chunk's embedding input now (knowledge/chunk_embedding.h).
// Not thread-safe: VectorIndex guards each instance with a lock (searches may share it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/retriever.h"
#include "store/chunk_embedding_repo.h"

namespace parley {

// What the set keeps of a trained text source.
struct VectorSource {
  std::string id;
  std::string type;
  std::optional<std::string> title;
  std::optional<std::string> url;
  std::string content;
};

class VectorSet {
 public:
  // Adds (or replaces) a source with the vectors of its chunks; returns how many were accepted.
  // Refused: a vector for a chunk the content does not have, for another text (hash), of another
  // dimension than the set's (the first vector fixes it), with a value that is not finite, or
  // all zeros.
  size_t add(VectorSource source, const std::vector<ChunkVector>& vectors);
  // Removes a source; false when it was not in the set.
  bool remove(std::string_view source_id);
  // Gives back what the matrix grew beyond its rows (after a load).
  void shrink_to_fit();

  // Up to `k` chunks, highest cosine similarity to `query` first (RetrievedChunk::score is the
  // similarity). Empty when the query's dimension is not the set's or it has no direction.
  std::vector<RetrievedChunk> search(const std::vector<float>& query, size_t k) const;

  size_t rows() const { return rows_.size(); }
  size_t dimensions() const { return dimensions_; }
  // Approximate heap bytes held: the matrix, the rows and the sources' text.
  size_t memory_bytes() const;

 private:
  struct Row {
    uint32_t source;  // index in sources_
    uint32_t chunk;   // ordinal within the source
    uint32_t offset;  // the chunk's text in the source's content
    uint32_t length;
  };

  size_t dimensions_ = 0;
  std::vector<float> matrix_;  // rows_.size() × dimensions_, each row of norm 1
  std::vector<Row> rows_;
  std::vector<VectorSource> sources_;
};

// `values` scaled to norm 1; nothing when a value is not finite or every value is zero.
std::optional<std::vector<float>> normalized(const std::vector<float>& values);

}  // namespace parley
