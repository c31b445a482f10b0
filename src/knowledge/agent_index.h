// The retrieval index of one agent, analysed by the agent's language and synonyms
// (knowledge/term_vocabulary.h): BM25 over the chunks of its trained text sources (a chunk's words,
// its source's title counted twice and its heading once and a half), and BM25 over its Q&A pairs
// (the question counted twice, the answer once), so a pair is found by what it asks and by what it
// answers. A query is planned into weighted slots (knowledge/evidence.h) with spelling corrections
// and synonyms; chunks are ranked by BM25 boosted by how much of the query their best sentences
// cover, and an answer is judged by that coverage. Sources are added and removed one at a time.
// Not thread-safe: KnowledgeIndex guards each instance with a lock (searches may share it;
// changes take it alone).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/string_map.h"
#include "knowledge/bm25.h"
#include "knowledge/evidence.h"
#include "knowledge/retriever.h"
#include "knowledge/term_vocabulary.h"
#include "model/agent_settings.h"

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

// Appends the terms that encode_terms wrote as `bytes` (sorted varint differences) to `out`.
void decode_terms(std::span<const uint8_t> bytes, std::vector<uint32_t>& out);

class AgentIndex {
 public:
  // An index analysed by `settings` (an unknown language is analysed as English).
  explicit AgentIndex(const KnowledgeSettings& settings = {});

  // Adds (or replaces) a source; returns the number of chunks indexed (Q&A pairs count as one).
  size_t add(const IndexedSource& source);
  // Removes a source; false when it was not indexed.
  bool remove(std::string_view source_id);

  std::vector<RetrievedChunk> search(std::string_view query, size_t k) const;
  std::vector<QaMatch> match_qa(std::string_view query, size_t k) const;
  KnowledgeAnswer answer(std::string_view question, size_t max_sentences) const;
  // The same for a question already analysed (a chat turn's message, text/analyzed_text.h): its
  // words are read, not split again, when it was analysed in this index's language.
  std::vector<QaMatch> match_qa(const AnalyzedText& query, size_t k) const;
  KnowledgeAnswer answer(const AnalyzedText& question, size_t max_sentences) const;

  // The question as the index weighs it (exposed for tests and the evaluation).
  QueryPlan plan(std::string_view query) const;
  QueryPlan plan(const AnalyzedText& query) const;

  // Whether removed sources fill most of the index (a source retrained in place leaves its old
  // chunks, vocabulary and slots behind): rebuilding it from the live sources gives the memory back.
  bool wants_rebuild() const;

  size_t live_chunks() const { return chunk_docs_.live(); }
  size_t qa_pairs() const { return qa_docs_.live(); }
  // Approximate heap bytes held.
  size_t memory_bytes() const;
  // Gives back the spare capacity its arrays grew by while sources were added (a copy of each).
  void shrink_to_fit();

 private:
  friend std::string index_form(const AgentIndex& index);
  friend std::optional<AgentIndex> index_from_form(std::string_view form,
                                                   const KnowledgeSettings& settings);

  // A sentence of a chunk: its bytes in the chunk's text and its terms' bytes in the chunk's
  // `terms`.
  struct Sentence {
    uint32_t begin, end;
    uint32_t terms_begin, terms_end;
    bool heading;
  };
  struct ChunkEntry {
    uint32_t source;
    uint32_t ordinal;
    std::string text;
    std::string heading;                  // empty when the chunk starts with it
    std::vector<Sentence> sentences;
    // Each sentence's terms, sorted and unique within it, as varints of the difference from the
    // term before (the first from 0): about a byte and a half a term instead of four.
    std::vector<uint8_t> terms;
    std::vector<uint32_t> heading_terms;  // sorted, unique
  };
  struct Source {
    std::string id;
    std::string type;
    std::optional<std::string> title;
    std::optional<std::string> url;
    std::vector<uint32_t> chunks;       // doc ids
    std::vector<uint32_t> title_terms;  // sorted, unique
  };
  struct QaEntry {
    std::string source_id;
    std::string question;
    std::string answer;
    std::string key;                       // normalize_for_match(question)
    std::vector<uint32_t> terms;           // the question's and the answer's, sorted, unique
    std::vector<uint32_t> question_terms;  // the question's alone
  };
  struct Candidate {
    uint32_t doc;
    double score;        // BM25 boosted by coverage
    SentencePick pick;
  };
  // Learns the words of a text: appends every term occurrence (stop words left out, synonym
  // groups in) to `occurrences`; returns the number of words.
  float learn(std::string_view text, std::vector<uint32_t>& occurrences);
  std::vector<Candidate> chunk_candidates(const QueryPlan& plan, size_t k, size_t max_sentences) const;
  double idf(uint32_t term) const;
  // How heavy a word the knowledge lacks weighs.
  double unknown_weight(std::string_view word) const;
  // The thesaurus' synonyms of an English word the knowledge holds, as lesser alternatives.
  void add_synonyms(const QueryWord& word, QuerySlot& slot) const;
  const QaEntry* exact_qa(const AnalyzedText& query) const;
  // `text` itself when this index's analyser analysed it, else `scratch` holding it re-analysed.
  const AnalyzedText& in_my_language(const AnalyzedText& text,
                                     std::optional<AnalyzedText>& scratch) const;
  // The terms of a chunk's BM25 document: its sentences', its heading's and its source's title's.
  std::vector<uint32_t> posted_terms(const ChunkEntry& chunk) const;
  // The share of the weight of a pair's question's terms that the query did not ask about.
  double unasked_share(const QueryPlan& plan, const QaEntry& qa) const;
  double qa_confidence(const QueryPlan& plan, const QaEntry& qa) const;

  KnowledgeSettings settings_;
  TermVocabulary vocabulary_;
  bool english_;  // analysed as English: usage figures, lemmas, answer kinds and the thesaurus apply
  Bm25Collection chunk_docs_;
  Bm25Collection qa_docs_;
  std::vector<ChunkEntry> chunks_;  // by chunk doc id
  std::vector<Source> sources_;
  StringMap<uint32_t> source_ids_;  // text sources
  std::vector<QaEntry> qa_;         // by qa doc id
  // Buffers learn() reuses (add() holds the index alone).
  std::vector<TermToken> scratch_tokens_;
  std::vector<uint32_t> scratch_groups_;
  StringMap<uint32_t> qa_ids_;      // qa sources
};

}  // namespace parley
