#include "knowledge/rank_fusion.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace parley {

namespace {
struct ChunkKey {
  std::string_view source_id;
  uint32_t chunk;
  bool operator==(const ChunkKey&) const = default;
};

struct ChunkKeyHash {
  size_t operator()(const ChunkKey& k) const {
    return std::hash<std::string_view>{}(k.source_id) * 31 + k.chunk;
  }
};

struct Fused {
  const RetrievedChunk* chunk;
  double score;
  size_t first_seen;
};
}  // namespace

std::vector<RetrievedChunk> fuse_rankings(
    std::initializer_list<const std::vector<RetrievedChunk>*> rankings, size_t k, double constant) {
  std::vector<Fused> fused;
  std::unordered_map<ChunkKey, size_t, ChunkKeyHash> at;  // key → index in `fused`
  for (const auto* ranking : rankings) {
    if (ranking == nullptr) continue;
    std::unordered_set<ChunkKey, ChunkKeyHash> seen;  // a repeat in one list counts once
    for (size_t i = 0; i < ranking->size(); ++i) {
      const RetrievedChunk& c = (*ranking)[i];
      ChunkKey key{c.source_id, c.chunk};
      if (!seen.insert(key).second) continue;
      double score = 1.0 / (constant + static_cast<double>(i + 1));
      auto [it, added] = at.emplace(key, fused.size());
      if (added) {
        fused.push_back({&c, score, fused.size()});
      } else {
        fused[it->second].score += score;
      }
    }
  }
  std::stable_sort(fused.begin(), fused.end(),
                   [](const Fused& a, const Fused& b) { return a.score > b.score; });
  std::vector<RetrievedChunk> out;
  for (size_t i = 0; i < fused.size() && i < k; ++i) {
    out.push_back(*fused[i].chunk);
    out.back().score = fused[i].score;
  }
  return out;
}

}  // namespace parley
