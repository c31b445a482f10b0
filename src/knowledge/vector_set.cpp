#include "knowledge/vector_set.h"

#include <algorithm>
#include <cmath>
#include <queue>

#include "knowledge/chunk_embedding.h"
#include "knowledge/chunker.h"

namespace parley {

namespace {
// Eight independent sums, so the compiler can keep several vector lanes busy.
float dot(const float* a, const float* b, size_t n) {
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (size_t j = 0; j < 8; ++j) s[j] += a[i + j] * b[i + j];
  float total = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  for (; i < n; ++i) total += a[i] * b[i];
  return total;
}
}  // namespace

std::optional<std::vector<float>> normalized(const std::vector<float>& values) {
  double sum = 0;
  for (float v : values) {
    if (!std::isfinite(v)) return std::nullopt;
    sum += static_cast<double>(v) * v;
  }
  if (!(sum > 0) || !std::isfinite(sum)) return std::nullopt;
  const double scale = 1.0 / std::sqrt(sum);
  std::vector<float> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<float>(values[i] * scale);
  return out;
}

size_t VectorSet::add(VectorSource source, const std::vector<ChunkVector>& vectors) {
  remove(source.id);
  std::vector<std::string_view> chunks = chunk_text(source.content);
  const auto index = static_cast<uint32_t>(sources_.size());
  size_t accepted = 0;
  for (const auto& v : vectors) {
    if (v.source_id != source.id || v.chunk >= chunks.size()) continue;
    if (dimensions_ != 0 && v.values.size() != dimensions_) continue;
    std::string_view text = chunks[v.chunk];
    if (v.text_hash != embedding_hash(embedding_input(source.title, text))) continue;
    auto unit = normalized(v.values);
    if (!unit) continue;
    if (dimensions_ == 0) dimensions_ = unit->size();
    matrix_.insert(matrix_.end(), unit->begin(), unit->end());
    rows_.push_back({index, v.chunk, static_cast<uint32_t>(text.data() - source.content.data()),
                     static_cast<uint32_t>(text.size())});
    ++accepted;
  }
  // The rows point into the content by offset, so moving the source in is safe.
  if (accepted > 0) sources_.push_back(std::move(source));
  return accepted;
}

bool VectorSet::remove(std::string_view source_id) {
  auto it = std::find_if(sources_.begin(), sources_.end(),
                         [&](const VectorSource& s) { return s.id == source_id; });
  if (it == sources_.end()) return false;
  const auto gone = static_cast<uint32_t>(it - sources_.begin());
  size_t kept = 0;
  for (size_t r = 0; r < rows_.size(); ++r) {
    Row row = rows_[r];
    if (row.source == gone) continue;
    if (row.source > gone) --row.source;
    if (kept != r) {
      std::copy_n(matrix_.begin() + static_cast<ptrdiff_t>(r * dimensions_), dimensions_,
                  matrix_.begin() + static_cast<ptrdiff_t>(kept * dimensions_));
    }
    rows_[kept++] = row;
  }
  rows_.resize(kept);
  matrix_.resize(kept * dimensions_);
  sources_.erase(it);
  if (rows_.empty()) dimensions_ = 0;
  return true;
}

void VectorSet::shrink_to_fit() {
  matrix_.shrink_to_fit();
  rows_.shrink_to_fit();
  sources_.shrink_to_fit();
}

std::vector<RetrievedChunk> VectorSet::search(const std::vector<float>& query, size_t k) const {
  std::vector<RetrievedChunk> out;
  if (k == 0 || rows_.empty() || query.size() != dimensions_) return out;
  auto unit = normalized(query);
  if (!unit) return out;
  // The k best so far, worst on top.
  using Scored = std::pair<float, uint32_t>;
  auto worse = [](const Scored& a, const Scored& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  std::priority_queue<Scored, std::vector<Scored>, decltype(worse)> best(worse);
  for (size_t r = 0; r < rows_.size(); ++r) {
    float s = dot(matrix_.data() + r * dimensions_, unit->data(), dimensions_);
    if (best.size() < k) {
      best.emplace(s, static_cast<uint32_t>(r));
    } else if (s > best.top().first) {
      best.pop();
      best.emplace(s, static_cast<uint32_t>(r));
    }
  }
  out.resize(best.size());
  for (size_t i = best.size(); i-- > 0; best.pop()) {
    const Row& row = rows_[best.top().second];
    const VectorSource& src = sources_[row.source];
    RetrievedChunk& c = out[i];
    c.source_id = src.id;
    c.source_type = src.type;
    c.title = src.title;
    c.url = src.url;
    c.text = src.content.substr(row.offset, row.length);
    c.score = best.top().first;
    c.chunk = row.chunk;
  }
  return out;
}

size_t VectorSet::memory_bytes() const {
  size_t bytes = matrix_.capacity() * sizeof(float) + rows_.capacity() * sizeof(Row) +
                 sources_.capacity() * sizeof(VectorSource);
  for (const auto& s : sources_) {
    bytes += s.id.capacity() + s.type.capacity() + s.content.capacity();
    if (s.title) bytes += s.title->capacity();
    if (s.url) bytes += s.url->capacity();
  }
  return bytes;
}

}  // namespace parley
