#include "engine/retrieval_engine.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "engine/turn_analysis.h"
#include "text/normalizer.h"

namespace parley {

namespace {
// A Q&A pair is suggested as a follow-up when it covers at least this share of the message.
constexpr double kFollowUpMatch = 0.2;

// Sends the text in sentence-sized pieces, as an engine that writes progressively would; the
// pieces joined are exactly the text.
void emit(const TextSink& sink, std::string_view text) {
  size_t start = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    bool end = (text[i] == '.' || text[i] == '!' || text[i] == '?' || text[i] == '\n') &&
               (text[i + 1] == ' ' || text[i + 1] == '\n');
    if (!end) continue;
    if (!sink(text.substr(start, i + 2 - start))) return;
    start = i + 2;
    i = start - 1;
  }
  if (start < text.size()) sink(text.substr(start));
}
}  // namespace

Result<void> RetrievalEngine::wait_delay(int64_t deadline_ms) const {
  if (options_.delay_ms <= 0) return {};
  int64_t until = clock_.now_ms() + options_.delay_ms;
  while (true) {
    int64_t now = clock_.now_ms();
    if (now >= until) return {};
    if (deadline_ms > 0 && now >= deadline_ms) break;
    int64_t step = std::min<int64_t>(until - now, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(step));
  }
  return ApiError{ErrorCode::kTimeout, "The reply took longer than the chat timeout."};
}

Result<ReplyBlocks> RetrievalEngine::reply(const ReplyRequest& request,
                                           const TextSink& sink) const {
  PARLEY_TRY(wait_delay(request.deadline_ms));
  const AgentSettings& settings = *request.settings;
  ReplyBlocks blocks;
  std::string text;
  std::string answered_question;
  // The turn's analysed message; analysed here only for a caller outside a chat turn.
  std::optional<AnalyzedText> own;
  const AnalyzedText& message =
      request.analysis
          ? request.analysis->message
          : own.emplace(request.message,
                        Analyzer::for_language_or_english(settings.knowledge.language));
  if (request.knowledge != nullptr) {
    KnowledgeAnswer answer = request.knowledge->answer(request.agent_id, settings.knowledge,
                                                       message, options_.max_sentences);
    blocks.confidence = answer.confidence;
    if (!answer.text.empty() && answer.confidence >= settings.knowledge.answer_threshold) {
      text = std::move(answer.text);
      answered_question = std::move(answer.qa_question);
      blocks.sources.push_back(
          {answer.source_id, citation_title(answer.title, answer.url), answer.url});
    }
  }
  const bool fallback = text.empty();
  if (fallback) text = settings.reply.fallback_message;
  blocks.outcome = reply_outcome(fallback, blocks.confidence, settings.knowledge.answer_threshold);
  if (deadline_passed(request.deadline_ms))
    return ApiError{ErrorCode::kTimeout, "The reply took longer than the chat timeout."};
  emit(sink, text);
  if (settings.reply.follow_ups)
    blocks.follow_ups = follow_ups(request, message, text, answered_question);
  return blocks;
}

bool RetrievalEngine::deadline_passed(int64_t deadline_ms) const {
  return deadline_ms > 0 && clock_.now_ms() > deadline_ms;
}

std::vector<std::string> RetrievalEngine::follow_ups(const ReplyRequest& request,
                                                     const AnalyzedText& message,
                                                     std::string_view reply,
                                                     std::string_view answered_question) const {
  std::vector<std::string> out;
  if (request.knowledge == nullptr) return out;
  // Questions already asked or answered in this conversation are not suggested again. The
  // history's questions are analysed only once a Q&A pair is close enough to be suggested.
  const KnowledgeSettings& knowledge = request.settings->knowledge;
  const Analyzer& analyzer = Analyzer::for_language_or_english(knowledge.language);
  auto key = [&](std::string_view text) { return normalize_for_match(text, analyzer); };
  std::set<std::string> asked;  // filled at the first close pair; never empty after
  auto fill_asked = [&] {
    asked.insert(&message.analyzer() == &analyzer ? message.key() : key(request.message));
    if (!answered_question.empty()) asked.insert(key(answered_question));
    for (const auto& m : request.history)
      if (m.role == "user") asked.insert(key(m.content));
  };
  auto consider = [&](const auto& text) {
    for (auto& m : request.knowledge->match_qa(request.agent_id, knowledge, text,
                                               options_.max_follow_ups + 4)) {
      if (out.size() >= options_.max_follow_ups) return;
      if (m.score < kFollowUpMatch) continue;
      if (asked.empty()) fill_asked();
      if (!asked.insert(std::move(m.key)).second) continue;
      out.push_back(std::move(m.question));
    }
  };
  consider(message);
  if (out.size() < options_.max_follow_ups) consider(reply);
  return out;
}

}  // namespace parley
