// The built-in `retrieval` engine: answers only with text from the agent's knowledge or settings.
// The knowledge's best answer (a Q&A pair's answer verbatim, or the sentences of a chunk that carry
// the asked fact; knowledge/agent_index.h) when it covers the question at least as surely as the
// agent's `answerThreshold`, else the agent's fallback message, with no sources. No network,
// deterministic: the same knowledge and message always give the same reply.
// The knowledge is asked with the turn's analysed message (engine/turn_analysis.h) when the request
// carries it. Stateless apart from its options; reply() is safe from many threads.
#pragma once

#include "core/clock.h"
#include "engine/reply_engine.h"
#include "text/analyzed_text.h"

namespace parley {

struct RetrievalOptions {
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
  std::vector<std::string> follow_ups(const ReplyRequest& request, const AnalyzedText& message,
                                      std::string_view reply,
                                      std::string_view answered_question) const;

  const Clock& clock_;
  RetrievalOptions options_;
};

}  // namespace parley
