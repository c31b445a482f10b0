// One BM25 collection (k1 1.2, b 0.75): documents as weighted term frequencies over a vocabulary
// the caller owns, so that a field can count more than another (a title's words count twice).
// Documents are added and removed one at a time; a removed document stops counting at once
// (tombstones, compacted when they outnumber live documents). A term's postings are kept as
// bytes: each document as the varint of its distance from the one before, then its weight
// (knowledge/index_bytes.h), about 2.5 bytes a posting instead of 8; every term's bytes are packed
// one after another in one buffer (12 bytes a term besides), and postings added since the last
// packing wait in a small map until they are half as many bytes as the buffer.
// Not thread-safe: AgentIndex guards it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parley {

class ByteReader;
class ByteWriter;

// A term and its weight: a frequency in a document, or a query term's importance.
struct WeightedTerm {
  uint32_t term;
  float weight;
};

// A document and its score.
struct ScoredDoc {
  uint32_t doc;
  float score;
};

class Bm25Collection {
 public:
  // Adds a document; `terms` holds each term once. Returns its id (ids are never reused).
  uint32_t add(const std::vector<WeightedTerm>& terms, float length);
  // Removes a live document whose terms (each once) are `terms`.
  void remove(uint32_t doc, const std::vector<uint32_t>& terms);

  bool alive(uint32_t doc) const { return doc < docs_.size() && docs_[doc].alive; }
  size_t live() const { return live_; }
  // Documents ever added (live and removed): what the collection's arrays are sized by.
  size_t added() const { return docs_.size(); }
  uint32_t df(uint32_t term) const { return term < df_.size() ? df_[term] : 0; }
  // Inverse document frequency over `documents` documents of which `df` hold the term.
  static double idf(double df, double documents);

  // The `k` best documents for the query terms (weights multiply each term's BM25 part), best
  // first; ties go to the older document.
  std::vector<ScoredDoc> top(const std::vector<WeightedTerm>& query, size_t k) const;

  size_t memory_bytes() const;
  // Packs the recent postings and gives back the arrays' spare capacity.
  void shrink_to_fit();

  // The persisted form (knowledge/index_form.h): save() writes the collection as it is, load()
  // reads it back into an empty collection and returns false when the bytes are not one.
  void save(ByteWriter& out) const;
  bool load(ByteReader& in);

 private:
  struct Doc {
    float length;
    bool alive;
  };
  // Bytes of postings: varint(doc - previous doc) then the weight (varint of twice it, shifted
  // left once, when it is a whole number of halves; else 1 and the float's four bytes).
  using Bytes = std::vector<uint8_t>;
  static void append(Bytes& bytes, uint32_t delta, float tf);
  // Calls fn(doc, tf) for each posting of `bytes`, counting documents from `doc`; returns the
  // last document.
  template <typename Fn>
  static uint32_t for_each(const uint8_t* begin, const uint8_t* end, uint32_t doc, Fn fn);
  // Calls fn(doc, tf) for each posting of the term, packed then recent.
  template <typename Fn>
  void for_each_posting(uint32_t term, Fn fn) const;
  size_t packed_begin(uint32_t term) const { return term == 0 ? 0 : packed_end_[term - 1]; }
  bool has_postings(uint32_t term) const {
    return packed_end_[term] > packed_begin(term) || recent_.count(term) > 0;
  }
  // Moves the recent postings into the packed buffer.
  void pack();
  void compact();

  Bytes packed_;                        // every term's postings, term after term
  std::vector<uint32_t> packed_end_;    // by term: where its packed postings end
  std::unordered_map<uint32_t, Bytes> recent_;  // by term: postings added since the last pack()
  size_t recent_bytes_ = 0;
  std::vector<uint32_t> last_;          // by term: the last document it was posted in
  std::vector<uint32_t> df_;                     // live documents holding the term
  std::vector<Doc> docs_;
  size_t live_ = 0;
  size_t dead_ = 0;
  double live_length_ = 0;
};

}  // namespace parley
