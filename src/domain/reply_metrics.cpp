#include "domain/reply_metrics.h"

#include <cstdio>

#include "engine/reply_engine.h"

namespace parley {

namespace {
template <size_t N>
size_t index_of(const std::array<std::string_view, N>& names, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return i;
  }
  return N - 1;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

std::string_view reply_outcome(const ReplyBlocks& blocks) {
  return blocks.outcome ? std::string_view(*blocks.outcome) : std::string_view("unrecorded");
}

void ReplyMetrics::count_reply(std::string_view engine, std::string_view outcome) {
  size_t e = engine == "openai" ? 1 : 0;
  replies_[e][index_of(kOutcomes, outcome)].fetch_add(1, std::memory_order_relaxed);
}

void ReplyMetrics::observe_duration(std::string_view engine, double seconds) {
  Histogram& h = durations_[engine == "openai" ? 1 : 0];
  size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  h.buckets[b].fetch_add(1, std::memory_order_relaxed);
  h.sum_us.fetch_add(static_cast<uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

void ReplyMetrics::write(std::string& out) const {
  out += "# HELP parley_replies_total Agent replies written, by engine and outcome.\n";
  out += "# TYPE parley_replies_total counter\n";
  for (size_t e = 0; e < kEngines.size(); ++e) {
    for (size_t o = 0; o < kOutcomes.size(); ++o) {
      out += "parley_replies_total{engine=\"" + std::string(kEngines[e]) + "\",outcome=\"" +
             std::string(kOutcomes[o]) + "\"} " +
             std::to_string(replies_[e][o].load(std::memory_order_relaxed)) + "\n";
    }
  }
  out +=
      "# HELP parley_reply_engine_duration_seconds Time an engine took to write a reply (openai: "
      "the provider's latency).\n";
  out += "# TYPE parley_reply_engine_duration_seconds histogram\n";
  for (size_t e = 0; e < kEngines.size(); ++e) {
    const Histogram& h = durations_[e];
    std::string label = "engine=\"" + std::string(kEngines[e]) + "\"";
    uint64_t cumulative = 0;
    for (size_t b = 0; b <= kBuckets.size(); ++b) {
      cumulative += h.buckets[b].load(std::memory_order_relaxed);
      std::string le = b < kBuckets.size() ? number(kBuckets[b]) : "+Inf";
      out += "parley_reply_engine_duration_seconds_bucket{" + label + ",le=\"" + le + "\"} " +
             std::to_string(cumulative) + "\n";
    }
    out += "parley_reply_engine_duration_seconds_sum{" + label + "} " +
           number(static_cast<double>(h.sum_us.load(std::memory_order_relaxed)) / 1e6) + "\n";
    out += "parley_reply_engine_duration_seconds_count{" + label + "} " +
           std::to_string(cumulative) + "\n";
  }
}

}  // namespace parley
