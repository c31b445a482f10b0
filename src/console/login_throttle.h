// Login attempt limits of the console: failed (and in-flight) attempts counted in fixed windows
// that start at the first counted attempt, per (email, client address) pair, per client address,
// and per email across every address. The pair's limit is low (5): it stops guessing one
// account from one place. The email's ceiling is much higher (100): it stops guessing spread
// over many addresses. It does not hold an address the email signed in from in the last 30 days
// (a known pair): a stranger with a hundred addresses can lock the email out of new places, not
// out of the member's own, which keep their pair allowance. Once a count reaches its limit, every
// attempt it covers is refused until the window ends, the correct password included. The client
// address is the one a trusted proxy names (http/client_address.h), grouped by IPv6 /64, so one
// proxy's address never stands for every client behind it (docs/security.md). A refused attempt
// adds nothing, and each table holds at most `max_subjects` windows (the oldest evicted first), so
// a flood of distinct emails costs neither memory nor time per login. On a database one node serves
// (SQLite), counts live in this process's memory (a restart forgets them). On a database nodes
// share (PostgreSQL), they are counted there (store/shared_window_repo.h) so the limits hold across
// every node: windows aligned to the window length, subjects named by a SHA-256 of the email or
// address, never the email itself. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string_view>

#include "console/login_throttle_windows.h"
#include "core/clock.h"
#include "core/result.h"
#include "store/db.h"

namespace parley {

struct LoginLimits {
  int64_t failures_per_email = 5;  // per email from one client address
  int64_t failures_per_address = 50;
  int64_t window_ms = 15 * 60 * 1000;
  // Windows tracked at once in each table (pairs, addresses, emails).
  int64_t max_subjects = 100'000;
  int64_t failures_per_email_all_addresses = 100;  // the email's ceiling across every address
  // How long an address the email signed in from is exempt from the email's ceiling.
  int64_t known_pair_ms = 30LL * 24 * 60 * 60 * 1000;
};

class LoginThrottle {
 public:
  // `shared`: the database to count in when nodes share it; null counts in memory.
  LoginThrottle(const Clock& clock, LoginLimits limits, Database* shared = nullptr);

  // Counts an attempt before the password is checked. Returns 0 when it may go ahead, else the
  // whole seconds (at least 1) until the blocking window ends; a refused attempt is not counted.
  int64_t begin(std::string_view email, std::string_view address);
  // The attempt succeeded: the pair's count starts over; the address's and the email's counts
  // give this attempt back (the email's ceiling is not reset: a guesser elsewhere goes on
  // counting).
  void succeeded(std::string_view email, std::string_view address);

  const LoginLimits& limits() const { return limits_; }
  // Windows held (pairs + addresses + emails; not the known pairs), for tests and metrics.
  size_t tracked() const;

 private:
  Result<int64_t> begin_shared(std::string_view email, std::string_view address, int64_t now);
  void succeeded_shared(std::string_view email, std::string_view address, int64_t now);

  const Clock& clock_;
  const LoginLimits limits_;
  Database* const shared_;
  mutable std::mutex mu_;
  LoginThrottleWindows by_pair_;
  LoginThrottleWindows by_address_;
  LoginThrottleWindows by_email_;
  LoginThrottleWindows known_;  // pairs that signed in within known_pair_ms
};

}  // namespace parley
