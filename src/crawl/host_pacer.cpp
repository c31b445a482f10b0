#include "crawl/host_pacer.h"

#include <algorithm>

namespace parley {

HostPacer::HostPacer(int max_in_flight) : max_in_flight_(std::max(1, max_in_flight)) {}

void HostPacer::set_delay(std::string_view host, int64_t delay_ms) {
  std::lock_guard lock(mu_);
  hosts_[std::string(host)].delay_ms = std::max<int64_t>(0, delay_ms);
}

int64_t HostPacer::try_start(std::string_view host, int64_t now_ms) {
  std::lock_guard lock(mu_);
  Host& h = hosts_[std::string(host)];
  int64_t wait = 0;
  if (h.started) {
    // A clock that went back cannot make the wait longer than the delay itself.
    int64_t since = std::max<int64_t>(0, now_ms - h.last_start_ms);
    wait = std::max<int64_t>(0, h.delay_ms - since);
  }
  if (h.in_flight >= max_in_flight_) return std::max(wait, kBusyRetryMs);
  if (wait > 0) return wait;
  ++h.in_flight;
  h.started = true;
  h.last_start_ms = now_ms;
  return 0;
}

void HostPacer::finish(std::string_view host) {
  std::lock_guard lock(mu_);
  auto it = hosts_.find(std::string(host));
  if (it != hosts_.end() && it->second.in_flight > 0) --it->second.in_flight;
}

int HostPacer::in_flight(std::string_view host) const {
  std::lock_guard lock(mu_);
  auto it = hosts_.find(std::string(host));
  return it == hosts_.end() ? 0 : it->second.in_flight;
}

}  // namespace parley
