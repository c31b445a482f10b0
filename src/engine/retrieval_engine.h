// The built-in `retrieval` engine: answers only with text from the agent's knowledge or settings.
// Q&A pairs first (the same question after normalisation, then a close match above a threshold),
// then the best sentences of the best BM25 chunk, else the agent's fallback message. No network,
// deterministic: the same knowledge and message always give the same reply.
// Stateless apart from its options; reply() is safe from many threads.
#pragma once

#include "core/clock.h"
#include "engine/reply_engine.h"

namespace parley {

struct RetrievalOptions {
  // A Q&A pair answers a question that is not the same when the index scores it at least
  // `close_match` and the two share at least `close_content` of their content words (function
  // words such as "what are your" make unrelated questions look alike to the index).
  double close_match = 0.6;
  double close_content = 0.5;
  // Sentences of the best chunk a reply quotes at most.
  size_t max_sentences = 3;
  // Suggested follow-up questions at most.
  size_t max_follow_ups = 3;
  // Test-only: the engine waits this long before answering (bounded by the deadline), so that
  // the 504 path can be exercised without a slow provider. 0 in production.
  int64_t delay_ms = 0;
};

class RetrievalEngine final : public ReplyEngine {
 public:
  RetrievalEngine(const Clock& clock, RetrievalOptions options)
      : clock_(clock), options_(options) {}

  Result<ReplyBlocks> reply(const ReplyRequest& request, const TextSink& sink) const override;

 private:
  // Waits out the test delay; 504 when the deadline comes first.
  Result<void> wait_delay(int64_t deadline_ms) const;
  bool deadline_passed(int64_t deadline_ms) const;
  std::vector<std::string> follow_ups(const ReplyRequest& request, std::string_view reply,
                                      std::string_view answered_question) const;

  const Clock& clock_;
  RetrievalOptions options_;
};

}  // namespace parley
