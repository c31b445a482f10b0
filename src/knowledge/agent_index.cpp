#include "knowledge/agent_index.h"

#include <algorithm>
#include <cmath>

#include "knowledge/chunker.h"
#include "text/normalizer.h"

namespace parley {

namespace {
constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
// A close (not normalised-equal) question never scores as high as an exact one.
constexpr double kCloseMatchCeiling = 0.95;

std::vector<std::string> sorted_words(std::string_view text) {
  auto words = tokenize(text);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}
}  // namespace

uint32_t AgentIndex::term_list(const std::optional<std::string>& title, std::string_view text,
                               std::vector<uint32_t>& ids, bool create) {
  ids.clear();
  uint32_t length = 0;
  auto add = [&](std::string_view token) {
    ++length;
    auto it = term_ids_.find(token);
    if (it != term_ids_.end()) {
      ids.push_back(it->second);
    } else if (create) {
      auto id = static_cast<uint32_t>(terms_.size());
      term_ids_.emplace(std::string(token), id);
      terms_.emplace_back();
      ids.push_back(id);
    }
  };
  if (title) for_each_token(*title, add);
  for_each_token(text, add);
  std::sort(ids.begin(), ids.end());
  return length;
}

size_t AgentIndex::add(const IndexedSource& source) {
  remove(source.id);
  if (source.type == "qa") {
    Qa qa{source.id, source.question, source.answer, normalize_for_match(source.question),
          sorted_words(source.question)};
    qa_.push_back(std::move(qa));
    return 1;
  }
  auto source_index = static_cast<uint32_t>(sources_.size());
  sources_.push_back(Source{source.id, source.type, source.title, source.url, {}, true});
  source_ids_[source.id] = source_index;
  std::vector<uint32_t> ids;
  for (std::string_view piece : chunk_text(source.content)) {
    uint32_t length = term_list(source.title, piece, ids, true);
    if (length == 0) continue;
    auto chunk_index = static_cast<uint32_t>(chunks_.size());
    for (size_t i = 0; i < ids.size();) {
      size_t j = i;
      while (j < ids.size() && ids[j] == ids[i]) ++j;
      auto& term = terms_[ids[i]];
      term.postings.push_back(Posting{chunk_index, static_cast<uint32_t>(j - i)});
      ++term.live_df;
      i = j;
    }
    chunks_.push_back(Chunk{source_index, length, true, std::string(piece)});
    sources_[source_index].chunks.push_back(chunk_index);
    ++live_chunks_;
    live_length_ += length;
  }
  return sources_[source_index].chunks.size();
}

bool AgentIndex::remove(std::string_view source_id) {
  auto qa = std::find_if(qa_.begin(), qa_.end(), [&](const Qa& q) { return q.source_id == source_id; });
  if (qa != qa_.end()) {
    qa_.erase(qa);
    return true;
  }
  auto it = source_ids_.find(source_id);
  if (it == source_ids_.end()) return false;
  Source& source = sources_[it->second];
  std::vector<uint32_t> ids;
  for (uint32_t c : source.chunks) {
    Chunk& chunk = chunks_[c];
    term_list(source.title, chunk.text, ids, false);
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (uint32_t id : ids) --terms_[id].live_df;
    chunk.alive = false;
    std::string().swap(chunk.text);
    --live_chunks_;
    ++dead_chunks_;
    live_length_ -= chunk.length;
  }
  source.alive = false;
  source.chunks.clear();
  source_ids_.erase(it);
  if (dead_chunks_ > 1000 && dead_chunks_ > live_chunks_) compact();
  return true;
}

void AgentIndex::compact() {
  for (auto& term : terms_) {
    std::erase_if(term.postings, [&](const Posting& p) { return !chunks_[p.chunk].alive; });
    term.postings.shrink_to_fit();
  }
  dead_chunks_ = 0;
}

std::vector<RetrievedChunk> AgentIndex::search(std::string_view query, size_t k) const {
  std::vector<RetrievedChunk> out;
  if (k == 0 || live_chunks_ == 0) return out;
  std::vector<uint32_t> ids;
  for_each_token(query, [&](std::string_view token) {
    auto it = term_ids_.find(token);
    if (it != term_ids_.end()) ids.push_back(it->second);
  });
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return out;

  thread_local std::vector<float> scores;
  thread_local std::vector<uint32_t> touched;
  if (scores.size() < chunks_.size()) scores.resize(chunks_.size(), 0.0f);
  touched.clear();
  const double n = static_cast<double>(live_chunks_);
  const double avg_length = static_cast<double>(live_length_) / n;
  for (uint32_t id : ids) {
    const Term& term = terms_[id];
    if (term.live_df == 0) continue;
    const double df = term.live_df;
    const double idf = std::log(1.0 + (n - df + 0.5) / (df + 0.5));
    for (const Posting& p : term.postings) {
      const Chunk& chunk = chunks_[p.chunk];
      if (!chunk.alive) continue;
      const double tf = p.tf;
      const double norm = kK1 * (1.0 - kB + kB * chunk.length / avg_length);
      if (scores[p.chunk] == 0.0f) touched.push_back(p.chunk);
      scores[p.chunk] += static_cast<float>(idf * tf * (kK1 + 1.0) / (tf + norm));
    }
  }
  size_t top = std::min(k, touched.size());
  auto better = [&](uint32_t a, uint32_t b) { return scores[a] != scores[b] ? scores[a] > scores[b] : a < b; };
  std::partial_sort(touched.begin(), touched.begin() + static_cast<std::ptrdiff_t>(top), touched.end(), better);
  out.reserve(top);
  for (size_t i = 0; i < top; ++i) {
    const Chunk& chunk = chunks_[touched[i]];
    const Source& source = sources_[chunk.source];
    out.push_back(RetrievedChunk{source.id, source.type, source.title, source.url, chunk.text, scores[touched[i]]});
  }
  for (uint32_t c : touched) scores[c] = 0.0f;
  return out;
}

std::vector<QaMatch> AgentIndex::match_qa(std::string_view query, size_t k) const {
  std::vector<QaMatch> out;
  if (k == 0 || qa_.empty()) return out;
  std::string key = normalize_for_match(query);
  auto words = sorted_words(query);
  for (const Qa& qa : qa_) {
    double score = 0;
    if (!key.empty() && qa.key == key) {
      score = 1.0;
    } else {
      std::vector<std::string> common;
      std::set_intersection(words.begin(), words.end(), qa.words.begin(), qa.words.end(),
                            std::back_inserter(common));
      if (common.empty()) continue;
      score = kCloseMatchCeiling * 2.0 * static_cast<double>(common.size()) /
              static_cast<double>(words.size() + qa.words.size());
    }
    out.push_back(QaMatch{qa.source_id, qa.question, qa.answer, score});
  }
  std::stable_sort(out.begin(), out.end(), [](const QaMatch& a, const QaMatch& b) { return a.score > b.score; });
  if (out.size() > k) out.resize(k);
  return out;
}

size_t AgentIndex::memory_bytes() const {
  size_t bytes = terms_.capacity() * sizeof(Term) + chunks_.capacity() * sizeof(Chunk) +
                 sources_.capacity() * sizeof(Source);
  for (const auto& [word, id] : term_ids_) bytes += sizeof(word) + sizeof(id) + 16 + (word.size() > 15 ? word.capacity() : 0);
  for (const auto& term : terms_) bytes += term.postings.capacity() * sizeof(Posting);
  for (const auto& chunk : chunks_) bytes += chunk.text.capacity() > 15 ? chunk.text.capacity() : 0;
  for (const auto& source : sources_) bytes += source.chunks.capacity() * sizeof(uint32_t) + source.id.size() + 64;
  for (const auto& qa : qa_) bytes += sizeof(Qa) + qa.question.size() + qa.answer.size() + qa.key.size() * 2;
  bytes += source_ids_.size() * 64;
  return bytes;
}

}  // namespace parley
