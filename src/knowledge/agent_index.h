// The retrieval index of one agent: BM25 (k1 1.2, b 0.75) over the chunks of its trained text
// sources, and its trained Q&A pairs matched by normalised question. Sources are added and removed
// one at a time; a removed source's chunks stop counting at once (tombstones, compacted when they
// outnumber live chunks). Not thread-safe: KnowledgeIndex guards each instance with a lock
// (searches may share it; changes take it alone).
#pragma once

#include "core/string_map.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "knowledge/retriever.h"

namespace parley {

// What the index needs of a trained source.
struct IndexedSource {
  std::string id;
  std::string type;
  std::optional<std::string> title;
  std::optional<std::string> url;
  std::string content;   // text types
  std::string question;  // qa
  std::string answer;    // qa
};

class AgentIndex {
 public:
  // Adds (or replaces) a source; returns the number of chunks indexed (Q&A pairs count as one).
  size_t add(const IndexedSource& source);
  // Removes a source; false when it was not indexed.
  bool remove(std::string_view source_id);

  std::vector<RetrievedChunk> search(std::string_view query, size_t k) const;
  std::vector<QaMatch> match_qa(std::string_view query, size_t k) const;

  size_t live_chunks() const { return live_chunks_; }
  size_t qa_pairs() const { return qa_.size(); }
  // Approximate heap bytes held.
  size_t memory_bytes() const;

 private:
  struct Posting {
    uint32_t chunk;
    uint32_t tf;
  };
  struct Term {
    std::vector<Posting> postings;
    uint32_t live_df = 0;
  };
  struct Chunk {
    uint32_t source;
    uint32_t length;  // tokens
    bool alive;
    std::string text;
  };
  struct Source {
    std::string id;
    std::string type;
    std::optional<std::string> title;
    std::optional<std::string> url;
    std::vector<uint32_t> chunks;
    bool alive;
  };
  struct Qa {
    std::string source_id;
    std::string question;
    std::string answer;
    std::string key;                 // normalize_for_match(question)
    std::vector<std::string> words;  // sorted, unique
  };

  // The term ids of the title and text, sorted (repeats kept: a run's length is the term's
  // frequency). Unknown terms get ids when `create`, else are left out. Returns the token count.
  uint32_t term_list(const std::optional<std::string>& title, std::string_view text,
                     std::vector<uint32_t>& ids, bool create);
  void compact();

  StringMap<uint32_t> term_ids_;
  std::vector<Term> terms_;
  std::vector<Chunk> chunks_;
  std::vector<Source> sources_;
  StringMap<uint32_t> source_ids_;
  size_t live_chunks_ = 0;
  size_t dead_chunks_ = 0;
  uint64_t live_length_ = 0;
  std::vector<Qa> qa_;
};

}  // namespace parley
