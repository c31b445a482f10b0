#include "knowledge/bm25.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "knowledge/index_bytes.h"

namespace parley {

namespace {
constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
// Removed documents' postings are dropped once there are more of them than of live ones, and at
// least this many (so a small collection is not compacted at every removal).
constexpr size_t kCompactAfter = 1000;
}  // namespace

namespace {
void put_varint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}
}  // namespace

void Bm25Collection::append(Postings& list, uint32_t doc, float tf) {
  put_varint(list.bytes, list.bytes.empty() ? doc : doc - list.last);
  float halves = tf * 2.0f;
  if (halves >= 0 && halves < 1e6f && halves == std::floor(halves)) {
    put_varint(list.bytes, static_cast<uint64_t>(halves) << 1);
  } else {
    put_varint(list.bytes, 1);
    uint8_t raw[sizeof tf];
    std::memcpy(raw, &tf, sizeof tf);
    list.bytes.insert(list.bytes.end(), raw, raw + sizeof tf);
  }
  list.last = doc;
}

template <typename Fn>
void Bm25Collection::for_each(const Postings& list, Fn fn) {
  const uint8_t* p = list.bytes.data();
  const uint8_t* end = p + list.bytes.size();
  auto varint = [&] {
    uint64_t v = 0;
    for (int shift = 0; p < end; shift += 7) {
      uint8_t b = *p++;
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) break;
    }
    return v;
  };
  uint32_t doc = 0;
  while (p < end) {
    doc += static_cast<uint32_t>(varint());
    uint64_t w = varint();
    float tf;
    if ((w & 1) == 0) {
      tf = static_cast<float>(w >> 1) * 0.5f;
    } else {
      if (end - p < static_cast<std::ptrdiff_t>(sizeof tf)) return;  // a corrupt form
      std::memcpy(&tf, p, sizeof tf);
      p += sizeof tf;
    }
    fn(doc, tf);
  }
}

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
    append(postings_[t.term], doc, t.weight);
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
    Postings kept;
    for_each(list, [&](uint32_t doc, float tf) {
      if (docs_[doc].alive) append(kept, doc, tf);
    });
    kept.bytes.shrink_to_fit();
    list = std::move(kept);
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
    for_each(postings_[q.term], [&](uint32_t doc, float tf) {
      const Doc& d = docs_[doc];
      if (!d.alive) return;
      const double norm = kK1 * (1.0 - kB + kB * d.length / avg_length);
      if (scores[doc] == 0.0f) touched.push_back(doc);
      scores[doc] += static_cast<float>(w * tf * (kK1 + 1.0) / (tf + norm));
    });
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
  size_t bytes = postings_.capacity() * sizeof(Postings) + df_.capacity() * sizeof(uint32_t) +
                 docs_.capacity() * sizeof(Doc);
  // A heap block costs its bytes rounded up to 16 and a header of 8.
  for (const auto& list : postings_)
    if (list.bytes.capacity() > 0) bytes += (list.bytes.capacity() + 8 + 15) / 16 * 16;
  return bytes;
}

void Bm25Collection::save(ByteWriter& out) const {
  out.varint(docs_.size());
  for (const Doc& d : docs_) {
    out.f32(d.length);
    out.u8(d.alive ? 1 : 0);
  }
  out.varint(postings_.size());
  for (size_t t = 0; t < postings_.size(); ++t) {
    out.varint(df_[t]);
    out.varint(postings_[t].last);
    out.varint(postings_[t].bytes.size());
    out.raw(postings_[t].bytes.data(), postings_[t].bytes.size());
  }
  out.varint(live_);
  out.varint(dead_);
  out.f64(live_length_);
}

bool Bm25Collection::load(ByteReader& in) {
  docs_.resize(in.count(5));
  for (Doc& d : docs_) {
    d.length = in.f32();
    d.alive = in.u8() != 0;
  }
  size_t terms = in.count(3);
  postings_.resize(terms);
  df_.resize(terms);
  for (size_t t = 0; t < terms && in.ok(); ++t) {
    df_[t] = in.id();
    postings_[t].last = in.id();
    std::string_view bytes = in.raw(in.count());
    postings_[t].bytes.assign(bytes.begin(), bytes.end());
    // Every posting must name a document the collection holds.
    bool valid = true;
    uint32_t last = 0;
    for_each(postings_[t], [&](uint32_t doc, float) {
      valid = valid && doc < docs_.size();
      last = doc;
    });
    if (!valid || (!postings_[t].bytes.empty() && last != postings_[t].last)) in.fail();
  }
  live_ = in.varint();
  dead_ = in.varint();
  live_length_ = in.f64();
  size_t alive = static_cast<size_t>(std::count_if(docs_.begin(), docs_.end(), [](const Doc& d) { return d.alive; }));
  if (alive != live_) in.fail();
  return in.ok();
}

}  // namespace parley
