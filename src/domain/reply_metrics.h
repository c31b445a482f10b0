// Replies counted for /metrics: by engine (`retrieval`, `openai`) and outcome, and how long each
// engine took to write a reply (for `openai`, the provider's latency: the engine's own work is
// microseconds beside it). A fixed set of series, no agent or account in any label. Recording is
// a few relaxed atomic increments; thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace parley {

struct ReplyBlocks;

// The outcome label of a reply for parley_replies_total: what the engine recorded in its blocks
// (a view into them), "unrecorded" when it recorded none.
std::string_view reply_outcome(const ReplyBlocks& blocks);

class ReplyMetrics {
 public:
  static constexpr std::array<std::string_view, 2> kEngines = {"retrieval", "openai"};
  // `unrecorded`: a reply whose engine gave no outcome (docs/decisions/figures.md).
  static constexpr std::array<std::string_view, 5> kOutcomes = {"answered", "low_confidence",
                                                                "fallback", "failed", "unrecorded"};
  static constexpr std::array<double, 12> kBuckets = {0.05, 0.1, 0.25, 0.5, 1,  2,
                                                      4,    8,   15,   30,  60, 120};

  // Unknown engines and outcomes are counted under the last of each list.
  void count_reply(std::string_view engine, std::string_view outcome);
  void observe_duration(std::string_view engine, double seconds);
  // Appends the series in the text exposition format.
  void write(std::string& out) const;

 private:
  struct Histogram {
    std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets{};  // not cumulative; last: +Inf
    std::atomic<uint64_t> sum_us{0};
  };
  std::array<std::array<std::atomic<uint64_t>, kOutcomes.size()>, kEngines.size()> replies_{};
  std::array<Histogram, kEngines.size()> durations_{};
};

}  // namespace parley
