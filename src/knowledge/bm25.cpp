#include "knowledge/bm25.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>

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

void Bm25Collection::append(Bytes& bytes, uint32_t delta, float tf) {
  put_varint(bytes, delta);
  float halves = tf * 2.0f;
  if (halves >= 0 && halves < 1e6f && halves == std::floor(halves)) {
    put_varint(bytes, static_cast<uint64_t>(halves) << 1);
  } else {
    put_varint(bytes, 1);
    uint8_t raw[sizeof tf];
    std::memcpy(raw, &tf, sizeof tf);
    bytes.insert(bytes.end(), raw, raw + sizeof tf);
  }
}

template <typename Fn>
uint32_t Bm25Collection::for_each(const uint8_t* p, const uint8_t* end, uint32_t doc, Fn fn) {
  auto varint = [&] {
    uint64_t v = 0;
    for (int shift = 0; p < end && shift < 64; shift += 7) {
      uint8_t b = *p++;
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) break;
    }
    return v;
  };
  while (p < end) {
    doc += static_cast<uint32_t>(varint());
    uint64_t w = varint();
    float tf;
    if ((w & 1) == 0) {
      tf = static_cast<float>(w >> 1) * 0.5f;
    } else {
      if (end - p < static_cast<std::ptrdiff_t>(sizeof tf)) break;  // a corrupt form
      std::memcpy(&tf, p, sizeof tf);
      p += sizeof tf;
    }
    fn(doc, tf);
  }
  return doc;
}

template <typename Fn>
void Bm25Collection::for_each_posting(uint32_t term, Fn fn) const {
  const uint8_t* base = packed_.data();
  uint32_t doc = for_each(base + packed_begin(term), base + packed_end_[term], 0, fn);
  if (recent_.empty()) return;
  auto it = recent_.find(term);
  if (it != recent_.end()) for_each(it->second.data(), it->second.data() + it->second.size(), doc, fn);
}

void Bm25Collection::pack() {
  if (recent_.empty()) return;
  Bytes packed;
  packed.reserve(packed_.size() + recent_bytes_);
  uint32_t begin = 0;  // where the term's postings begin in the old buffer
  for (uint32_t t = 0; t < packed_end_.size(); ++t) {
    uint32_t end = packed_end_[t];
    packed.insert(packed.end(), packed_.begin() + begin, packed_.begin() + end);
    begin = end;
    // The recent postings' first distance counts from the last packed one: they follow on.
    if (auto it = recent_.find(t); it != recent_.end()) packed.insert(packed.end(), it->second.begin(), it->second.end());
    packed_end_[t] = static_cast<uint32_t>(packed.size());
  }
  packed_ = std::move(packed);
  recent_.clear();
  recent_ = {};
  recent_bytes_ = 0;
}

double Bm25Collection::idf(double df, double documents) {
  return std::log(1.0 + (documents - df + 0.5) / (df + 0.5));
}

uint32_t Bm25Collection::add(const std::vector<WeightedTerm>& terms, float length) {
  auto doc = static_cast<uint32_t>(docs_.size());
  docs_.push_back({length, true});
  for (const auto& t : terms) {
    if (t.term >= df_.size()) {
      df_.resize(t.term + 1, 0);
      last_.resize(t.term + 1, 0);
      packed_end_.resize(t.term + 1, static_cast<uint32_t>(packed_.size()));
    }
    uint32_t delta = has_postings(t.term) ? doc - last_[t.term] : doc;
    Bytes& bytes = recent_[t.term];
    size_t before = bytes.size();
    append(bytes, delta, t.weight);
    recent_bytes_ += bytes.size() - before;
    last_[t.term] = doc;
    ++df_[t.term];
  }
  ++live_;
  live_length_ += length;
  // Packed once the recent postings are half the packed ones: each posting is copied a few
  // times in all, and the map stays small.
  if (recent_bytes_ > 65536 && recent_bytes_ * 2 > packed_.size()) pack();
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
  pack();
  Bytes packed;
  packed.reserve(packed_.size());
  uint32_t begin = 0;  // where the term's postings begin in the old buffer
  for (uint32_t t = 0; t < packed_end_.size(); ++t) {
    uint32_t previous = 0, end = packed_end_[t];
    bool any = false;
    const uint8_t* base = packed_.data();
    for_each(base + begin, base + end, 0, [&](uint32_t doc, float tf) {
      if (!docs_[doc].alive) return;
      append(packed, any ? doc - previous : doc, tf);
      previous = doc;
      any = true;
    });
    begin = end;
    packed_end_[t] = static_cast<uint32_t>(packed.size());
    if (any) last_[t] = previous;
  }
  packed.shrink_to_fit();
  packed_ = std::move(packed);
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
    if (q.term >= df_.size() || df_[q.term] == 0 || q.weight <= 0) continue;
    const double w = q.weight * idf(df_[q.term], n);
    for_each_posting(q.term, [&](uint32_t doc, float tf) {
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

void Bm25Collection::shrink_to_fit() {
  pack();
  packed_.shrink_to_fit();
  packed_end_.shrink_to_fit();
  last_.shrink_to_fit();
  df_.shrink_to_fit();
  docs_.shrink_to_fit();
}

size_t Bm25Collection::memory_bytes() const {
  size_t bytes = packed_.capacity() + (packed_end_.capacity() + last_.capacity() + df_.capacity()) * sizeof(uint32_t) +
                 docs_.capacity() * sizeof(Doc);
  // A map node holds the key, the vector and the next pointer; a heap block has a header of 8
  // and is rounded up to 16.
  for (const auto& [term, list] : recent_) bytes += 48 + (list.capacity() + 8 + 15) / 16 * 16;
  return bytes + recent_.bucket_count() * sizeof(void*);
}

void Bm25Collection::save(ByteWriter& out) const {
  out.varint(docs_.size());
  for (const Doc& d : docs_) {
    out.f32(d.length);
    out.u8(d.alive ? 1 : 0);
  }
  out.varint(df_.size());
  for (uint32_t t = 0; t < df_.size(); ++t) {
    out.varint(df_[t]);
    out.varint(last_[t]);
    size_t packed = packed_end_[t] - packed_begin(t);
    auto it = recent_.find(t);
    size_t recent = it == recent_.end() ? 0 : it->second.size();
    out.varint(packed + recent);
    out.raw(packed_.data() + packed_begin(t), packed);
    if (recent > 0) out.raw(it->second.data(), recent);
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
  df_.resize(terms);
  last_.resize(terms);
  packed_end_.resize(terms);
  for (uint32_t t = 0; t < terms && in.ok(); ++t) {
    df_[t] = in.id();
    last_[t] = in.id();
    std::string_view bytes = in.raw(in.count());
    size_t begin = packed_.size();
    packed_.insert(packed_.end(), bytes.begin(), bytes.end());
    packed_end_[t] = static_cast<uint32_t>(packed_.size());
    // Every posting must name a document the collection holds; the last one is `last_`.
    bool valid = packed_.size() <= UINT32_MAX;
    uint32_t last = for_each(packed_.data() + begin, packed_.data() + packed_.size(), 0,
                             [&](uint32_t doc, float) { valid = valid && doc < docs_.size(); });
    if (!valid || (!bytes.empty() && last != last_[t])) in.fail();
  }
  packed_.shrink_to_fit();
  live_ = in.varint();
  dead_ = in.varint();
  live_length_ = in.f64();
  size_t alive = static_cast<size_t>(std::count_if(docs_.begin(), docs_.end(), [](const Doc& d) { return d.alive; }));
  if (alive != live_) in.fail();
  return in.ok();
}

}  // namespace parley
