#include "engine/retrieval_engine.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "text/normalizer.h"
#include "text/sentences.h"

namespace parley {

namespace {
struct Composed {
  std::string text;
  std::vector<SourceRef> sources;
  std::string answered_question;  // the Q&A pair's question when one answered
};

// The best sentences of a chunk for the query words, in the chunk's own order. Empty when no
// sentence shares a word with the query, so that a chunk found only through stemming or noise
// does not become an answer that does not address the question.
std::string best_sentences(std::string_view chunk, const std::set<std::string>& query_words,
                           size_t max_sentences) {
  auto sentences = split_sentences(chunk);
  std::vector<std::pair<size_t, size_t>> scored;  // (score, index)
  for (size_t i = 0; i < sentences.size(); ++i) {
    std::set<std::string> seen;
    for (auto& w : content_words(sentences[i]))
      if (query_words.count(w)) seen.insert(w);
    if (!seen.empty()) scored.emplace_back(seen.size(), i);
  }
  if (scored.empty()) return "";
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (scored.size() > max_sentences) scored.resize(max_sentences);
  std::sort(scored.begin(), scored.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  std::string out;
  for (const auto& [score, i] : scored) {
    if (!out.empty()) out.push_back(' ');
    out += sentences[i];
  }
  return out;
}

constexpr double kSameQuestion = 0.999;

bool shares_word(std::string_view text, const std::set<std::string>& query_words) {
  for (const auto& w : content_words(text))
    if (query_words.count(w)) return true;
  return false;
}

std::string leading_sentences(std::string_view chunk, size_t max_sentences) {
  std::string out;
  auto sentences = split_sentences(chunk);
  for (size_t i = 0; i < sentences.size() && i < max_sentences; ++i) {
    if (!out.empty()) out.push_back(' ');
    out += sentences[i];
  }
  return out;
}

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
  Composed c;
  if (request.knowledge != nullptr) {
    auto qa = request.knowledge->match_qa(request.agent_id, request.message, 1);
    if (!qa.empty() &&
        (qa.front().score >= kSameQuestion ||
         (qa.front().score >= options_.close_match &&
          content_overlap(qa.front().question, request.message) >= options_.close_content))) {
      c.text = qa.front().answer;
      c.answered_question = qa.front().question;
    } else {
      auto words = content_words(request.message);
      std::set<std::string> query_words(words.begin(), words.end());
      for (const auto& chunk : request.knowledge->search(request.agent_id, request.message, 3)) {
        std::string text = best_sentences(chunk.text, query_words, options_.max_sentences);
        if (text.empty() && chunk.title && shares_word(*chunk.title, query_words)) {
          text = leading_sentences(chunk.text, options_.max_sentences);  // the title answered
        }
        if (text.empty()) continue;
        c.text = std::move(text);
        c.sources.push_back(
            {chunk.source_id, chunk.title.value_or(chunk.url.value_or("")), chunk.url});
        break;
      }
    }
  }
  if (c.text.empty()) c.text = request.settings->reply.fallback_message;
  if (deadline_passed(request.deadline_ms))
    return ApiError{ErrorCode::kTimeout, "The reply took longer than the chat timeout."};
  emit(sink, c.text);
  ReplyBlocks blocks;
  blocks.sources = std::move(c.sources);
  if (request.settings->reply.follow_ups)
    blocks.follow_ups = follow_ups(request, c.text, c.answered_question);
  return blocks;
}

bool RetrievalEngine::deadline_passed(int64_t deadline_ms) const {
  return deadline_ms > 0 && clock_.now_ms() > deadline_ms;
}

std::vector<std::string> RetrievalEngine::follow_ups(const ReplyRequest& request,
                                                     std::string_view reply,
                                                     std::string_view answered_question) const {
  std::vector<std::string> out;
  if (request.knowledge == nullptr) return out;
  // Questions already asked or answered in this conversation are not suggested again.
  std::set<std::string> asked = {normalize_for_match(request.message)};
  if (!answered_question.empty()) asked.insert(normalize_for_match(answered_question));
  for (const auto& m : request.history)
    if (m.role == "user") asked.insert(normalize_for_match(m.content));
  auto consider = [&](std::string_view text) {
    for (const auto& m :
         request.knowledge->match_qa(request.agent_id, text, options_.max_follow_ups + 4)) {
      if (out.size() >= options_.max_follow_ups) return;
      if (!asked.insert(normalize_for_match(m.question)).second) continue;
      out.push_back(m.question);
    }
  };
  consider(request.message);
  if (out.size() < options_.max_follow_ups) consider(reply);
  return out;
}

}  // namespace parley
