// Politeness per host for the crawler: at most `max_in_flight` requests to one host at a time,
// and at least that host's delay (robots.txt Crawl-delay, or the operator's floor) between the
// starts of two requests to it. The caller passes the time in (milliseconds of any steady clock),
// so tests move it by hand. Thread-safe: every method takes one mutex.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace parley {

class HostPacer {
 public:
  // What try_start answers when the host has max_in_flight requests under way: a request that
  // finishes frees a slot at a time no clock can predict, so the caller asks again this soon.
  static constexpr int64_t kBusyRetryMs = 10;

  explicit HostPacer(int max_in_flight = 2);

  // The least time between the starts of two requests to `host` (negative: 0).
  void set_delay(std::string_view host, int64_t delay_ms);
  // 0 when a request may start now (and counts it in flight); else how many ms to wait (≥ 1).
  int64_t try_start(std::string_view host, int64_t now_ms);
  // A request that try_start let through is over.
  void finish(std::string_view host);
  // Requests to `host` under way now.
  int in_flight(std::string_view host) const;

 private:
  struct Host {
    int in_flight = 0;
    int64_t delay_ms = 0;
    bool started = false;
    int64_t last_start_ms = 0;
  };

  const int max_in_flight_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Host> hosts_;
};

}  // namespace parley
