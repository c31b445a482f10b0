// What the reply engines ask of an agent's knowledge: the best chunks of its trained text sources
// for a query, and its Q&A pairs ranked against the query. Implemented by the in-memory index
// (BM25 over chunks, Q&A matched by normalised question) that training keeps up to date.
// Thread-safe: many replies query while the trainer adds and removes sources.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// A chunk of a trained source, with the source it came from (for the reply's `sources`).
struct RetrievedChunk {
  std::string source_id;
  std::string source_type;           // "text", "website", "file", "workspace"
  std::optional<std::string> title;
  std::optional<std::string> url;
  std::string text;
  double score = 0;                  // BM25; higher is better
};

// A trained Q&A pair and how well its question matches the query: 1.0 for the same question
// after normalisation (Unicode case folding, punctuation and spacing ignored), lower for a close
// match.
struct QaMatch {
  std::string source_id;
  std::string question;
  std::string answer;
  double score = 0;
};

class Retriever {
 public:
  virtual ~Retriever() = default;

  // Up to `k` chunks of the agent's trained sources, best first; empty when nothing matches.
  virtual std::vector<RetrievedChunk> search(std::string_view agent_id, std::string_view query,
                                             size_t k) const = 0;
  // Up to `k` of the agent's trained Q&A pairs, best match first; pairs that share no word with
  // the query are left out.
  virtual std::vector<QaMatch> match_qa(std::string_view agent_id, std::string_view query,
                                        size_t k) const = 0;
};

}  // namespace parley
