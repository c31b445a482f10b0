#include "knowledge/bm25.h"

#include <algorithm>
#include <cmath>

namespace parley {

namespace {
constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
// Removed documents' postings are dropped once there are more of them than of live ones, and at
// least this many (so a small collection is not compacted at every removal).
constexpr size_t kCompactAfter = 1000;
}  // namespace

double Bm25Collection::idf(double df, double documents) {
  return std::log(1.0 + (documents - df + 0.5) / (df + 0.5));
}

uint32_t Bm25Collection::add(const std::vector<WeightedTerm>& terms, float length) {
  auto doc = static_cast<uint32_t>(docs_.size());
  docs_.push_back({length, true});
  for (const auto& t : terms) {
    if (t.term >= postings_.size()) {
      postings_.resize(t.term + 1);
      df_.resize(t.term + 1, 0);
    }
    postings_[t.term].push_back({doc, t.weight});
    ++df_[t.term];
  }
  ++live_;
  live_length_ += length;
  return doc;
}

void Bm25Collection::remove(uint32_t doc, const std::vector<uint32_t>& terms) {
  if (!alive(doc)) return;
  for (uint32_t t : terms)
    if (t < df_.size() && df_[t] > 0) --df_[t];
  docs_[doc].alive = false;
  --live_;
  ++dead_;
  live_length_ -= docs_[doc].length;
  if (dead_ > kCompactAfter && dead_ > live_) compact();
}

void Bm25Collection::compact() {
  for (auto& list : postings_) {
    std::erase_if(list, [&](const Posting& p) { return !docs_[p.doc].alive; });
    list.shrink_to_fit();
  }
  dead_ = 0;
}

std::vector<ScoredDoc> Bm25Collection::top(const std::vector<WeightedTerm>& query, size_t k) const {
  std::vector<ScoredDoc> out;
  if (k == 0 || live_ == 0) return out;
  thread_local std::vector<float> scores;
  thread_local std::vector<uint32_t> touched;
  if (scores.size() < docs_.size()) scores.resize(docs_.size(), 0.0f);
  touched.clear();
  const double n = static_cast<double>(live_);
  const double avg_length = std::max(1.0, live_length_ / n);
  for (const auto& q : query) {
    if (q.term >= postings_.size() || df_[q.term] == 0 || q.weight <= 0) continue;
    const double w = q.weight * idf(df_[q.term], n);
    for (const Posting& p : postings_[q.term]) {
      const Doc& d = docs_[p.doc];
      if (!d.alive) continue;
      const double norm = kK1 * (1.0 - kB + kB * d.length / avg_length);
      if (scores[p.doc] == 0.0f) touched.push_back(p.doc);
      scores[p.doc] += static_cast<float>(w * p.tf * (kK1 + 1.0) / (p.tf + norm));
    }
  }
  size_t n_top = std::min(k, touched.size());
  auto better = [&](uint32_t a, uint32_t b) { return scores[a] != scores[b] ? scores[a] > scores[b] : a < b; };
  std::partial_sort(touched.begin(), touched.begin() + static_cast<std::ptrdiff_t>(n_top), touched.end(), better);
  out.reserve(n_top);
  for (size_t i = 0; i < n_top; ++i) out.push_back({touched[i], scores[touched[i]]});
  for (uint32_t d : touched) scores[d] = 0.0f;
  return out;
}

size_t Bm25Collection::memory_bytes() const {
  size_t bytes = postings_.capacity() * sizeof(std::vector<Posting>) + df_.capacity() * sizeof(uint32_t) +
                 docs_.capacity() * sizeof(Doc);
  for (const auto& list : postings_) bytes += list.capacity() * sizeof(Posting);
  return bytes;
}

}  // namespace parley
