// What the reply engines ask of an agent's knowledge: the best chunks of its trained text sources
// for a query, its Q&A pairs ranked against the query, and the answer the knowledge gives with how
// surely it answers. Implemented by the in-memory index (knowledge/agent_index.h) that training
// keeps up to date; every query names the agent's knowledge settings (language, synonyms), by
// which its knowledge is analysed.
// Thread-safe: many replies query while the trainer adds and removes sources.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/agent_settings.h"
#include "text/analyzed_text.h"

namespace parley {

// A chunk of a trained source, with the source it came from (for the reply's `sources`).
struct RetrievedChunk {
  std::string source_id;
  std::string source_type;           // "text", "website", "file", "workspace"
  std::optional<std::string> title;
  std::optional<std::string> url;
  std::string text;
  double score = 0;                  // BM25 with the sentence-coverage boost; higher is better
  uint32_t chunk = 0;                // the chunk's ordinal within its source (chunk_text's order)
};

// A trained Q&A pair and how well it matches the query: 1.0 for the same question after
// normalisation (case, punctuation, spacing and inflection ignored), lower for a pair whose
// question and answer cover less of the query.
struct QaMatch {
  std::string source_id;
  std::string question;
  std::string answer;
  double score = 0;
  std::string key = {};  // normalize_for_match(question), as the index keeps it; always filled
};

// What an answer's confidence is computed from (knowledge/answerability.h).
struct AnswerSignals {
  double coverage = 0;      // share of the question's weight the answer and its context cover
  double sentence = 0;      // the same, by the best sentence alone
  double key = 0;           // 1 when the question's heaviest word is covered
  double foreign = 0;       // share of the question's weight in words the knowledge lacks, uncovered
  double margin = 0;        // how far the answer is ahead of the best one from another source (0..1)
  double number = 1;        // 0 when the question asks for a number and the answer states none
  double qa = 0;            // 1 for a Q&A pair's answer
  double unasked = 0;       // a pair's question's share of words the question did not ask about
};

// The knowledge's answer to a question: the sentences that carry the asked fact (or a Q&A pair's
// answer verbatim), what they came from, and how surely they answer (0..1, compared with the
// agent's `answerThreshold`). Empty text: nothing in the knowledge bears on the question.
struct KnowledgeAnswer {
  std::string text;
  double confidence = 0;
  std::string source_id;
  std::optional<std::string> title;  // the source's title, or the Q&A pair's question
  std::optional<std::string> url;
  std::string qa_question;           // set when a Q&A pair answered
  AnswerSignals signals;
};

class Retriever {
 public:
  virtual ~Retriever() = default;

  // Up to `k` chunks of the agent's trained sources, best first; empty when nothing matches.
  virtual std::vector<RetrievedChunk> search(std::string_view agent_id, const KnowledgeSettings& settings,
                                             std::string_view query, size_t k) const = 0;
  // Up to `k` of the agent's trained Q&A pairs, best match first; pairs that share no term with
  // the query are left out.
  virtual std::vector<QaMatch> match_qa(std::string_view agent_id, const KnowledgeSettings& settings,
                                        std::string_view query, size_t k) const = 0;
  // The best answer the agent's knowledge gives, quoting at most `max_sentences` sentences of a
  // chunk.
  virtual KnowledgeAnswer answer(std::string_view agent_id, const KnowledgeSettings& settings,
                                 std::string_view question, size_t max_sentences) const = 0;

  // The same for a question a chat turn has already analysed (text/analyzed_text.h): an index
  // reads its words instead of splitting the text again. By default, the text is asked.
  virtual std::vector<QaMatch> match_qa(std::string_view agent_id,
                                        const KnowledgeSettings& settings,
                                        const AnalyzedText& query, size_t k) const {
    return match_qa(agent_id, settings, std::string_view(query.text()), k);
  }
  virtual KnowledgeAnswer answer(std::string_view agent_id, const KnowledgeSettings& settings,
                                 const AnalyzedText& question, size_t max_sentences) const {
    return answer(agent_id, settings, std::string_view(question.text()), max_sentences);
  }
};

}  // namespace parley
