// The server's Prometheus metrics (`GET /metrics`, text format 0.0.4): requests by route pattern
// and status, a latency histogram per route, open connections and requests in flight, and the
// process's CPU time, memory and file descriptors, and what the overload limits refused. Labels are route patterns, never paths, so
// no id, key or account appears and the number of series stays fixed. Recording is a few relaxed
// atomic increments; thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parley {

class HttpMetrics {
 public:
  // One series per route name; record() also takes unmatched() for requests no route took.
  explicit HttpMetrics(std::vector<std::string> routes);

  size_t unmatched() const { return routes_.size() - 1; }
  void record(size_t route, int status, double seconds);
  void connection_opened() { connections_.fetch_add(1, std::memory_order_relaxed); }
  void connection_closed() { connections_.fetch_sub(1, std::memory_order_relaxed); }
  // A connection refused with 503 (or closed at once) past the connection cap.
  void connection_refused() { refused_connections_.fetch_add(1, std::memory_order_relaxed); }
  // A request refused with 503 because too many already wait for a blocking thread.
  void request_refused_busy() { refused_busy_.fetch_add(1, std::memory_order_relaxed); }

  // Appends every metric in the text exposition format; `in_flight` is the server's count and
  // `pool_waiting` the requests waiting for a blocking thread.
  void write(std::string& out, int64_t in_flight, int64_t pool_waiting) const;

  static constexpr std::array<double, 15> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                      0.25,   0.5,   1,      2.5,   5,     10,   30};

 private:
  struct Series {
    std::array<std::atomic<uint64_t>, 500> by_status{};  // status 100..599
    std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets{};  // not cumulative; last is +Inf
    std::atomic<uint64_t> sum_us{0};
  };
  std::vector<std::string> routes_;
  std::unique_ptr<Series[]> series_;
  std::atomic<int64_t> connections_{0};
  std::atomic<uint64_t> refused_connections_{0};
  std::atomic<uint64_t> refused_busy_{0};
};

}  // namespace parley
