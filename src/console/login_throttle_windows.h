// Attempt counts per subject (an email or a remote address) in fixed windows that start at the
// subject's first counted attempt, for the console's login throttle. Bounded: windows are kept in
// a queue in the order they started, so ended windows are dropped from its front a few at a time
// (no scan of the whole table) and, at the cap, the oldest window is evicted first. Every
// operation is O(1) amortised. Not thread-safe: the login throttle holds its lock around calls.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "core/string_map.h"

namespace parley {

class LoginThrottleWindows {
 public:
  LoginThrottleWindows(int64_t window_ms, size_t max_subjects)
      : window_ms_(window_ms), max_subjects_(max_subjects < 1 ? 1 : max_subjects) {}

  // The subject's count in its window running at `now` (0 when none), without adding an entry.
  int64_t count(std::string_view subject, int64_t now) const;
  // When the subject's running window ends (only meaningful when count() > 0).
  int64_t ends_at(std::string_view subject) const;
  // Counts one attempt, starting a window when none runs.
  void add(std::string_view subject, int64_t now);
  // Takes one attempt back (never below zero).
  void uncount(std::string_view subject);
  // Forgets the subject's window.
  void forget(std::string_view subject);
  // Drops the windows that have ended by `now`, oldest first, stopping at the first running one.
  void expire(int64_t now);

  size_t size() const { return windows_.size(); }

 private:
  struct Window {
    int64_t start = 0;
    int64_t count = 0;
  };
  struct Started {
    int64_t start;
    std::string subject;
  };

  // Pops the queue's front and erases its window unless the window was restarted since.
  void pop_oldest();

  const int64_t window_ms_;
  const size_t max_subjects_;
  StringMap<Window> windows_;
  // One entry per window started, in start order; an entry whose subject has since been
  // forgotten or restarted is stale and dropped when it reaches the front. Its length bounds the
  // table's (each window has its entry here), so the cap is applied to it.
  std::deque<Started> by_start_;
};

}  // namespace parley
