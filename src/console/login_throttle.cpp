#include "console/login_throttle.h"

#include <algorithm>
#include <limits>
#include <string>

#include "core/crypto.h"
#include "core/log.h"
#include "store/shared_window_repo.h"

namespace parley {

namespace {
std::string subject_name(std::string_view kind, std::string_view subject) {
  std::string name(kind);
  name.append(sha256_hex(subject));
  return name;
}

std::string pair_of(std::string_view email, std::string_view address) {
  std::string pair(email);
  pair.push_back('\n');
  pair.append(address);
  return pair;
}

// A pair that signed in, kept 30 days where nodes count (a lasting counter).
std::string known_pair_name(std::string_view email, std::string_view address) {
  return subject_name(std::string(SharedWindowRepo::kLastingPrefix) + "login-known:",
                      pair_of(email, address));
}
}  // namespace

LoginThrottle::LoginThrottle(const Clock& clock, LoginLimits limits, Database* shared)
    : clock_(clock),
      limits_(limits),
      shared_(shared),
      by_pair_(limits.window_ms, static_cast<size_t>(std::max<int64_t>(1, limits.max_subjects))),
      by_address_(limits.window_ms, static_cast<size_t>(std::max<int64_t>(1, limits.max_subjects))),
      by_email_(limits.window_ms, static_cast<size_t>(std::max<int64_t>(1, limits.max_subjects))),
      known_(limits.known_pair_ms, static_cast<size_t>(std::max<int64_t>(1, limits.max_subjects))) {
}

Result<int64_t> LoginThrottle::begin_shared(std::string_view email, std::string_view address, int64_t now) {
  const int64_t window = now - now % limits_.window_ms;
  const std::string by_pair = subject_name("login-pair:", pair_of(email, address));
  const std::string by_address = subject_name("login-address:", address);
  const std::string by_email = subject_name("login-email:", email);
  const std::string known_name = known_pair_name(email, address);
  bool allowed = false;
  PARLEY_TRY(shared_->write_volatile([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(
        WindowTake p, SharedWindowRepo::take(c, by_pair, window, 1, limits_.failures_per_email));
    if (p.taken == 0) return {};
    PARLEY_ASSIGN_OR_RETURN(WindowTake a,
                            SharedWindowRepo::take(c, by_address, window, 1, limits_.failures_per_address));
    // A refused attempt adds nothing: the counts taken go back.
    if (a.taken == 0) return SharedWindowRepo::give_back(c, by_pair, window, 1);
    // A known pair is not held by the email's ceiling; its attempt still counts toward it (and is
    // given back on success), as in memory.
    PARLEY_ASSIGN_OR_RETURN(int64_t known,
                            SharedWindowRepo::peek(c, known_name, now - limits_.known_pair_ms));
    const int64_t ceiling =
        known > 0 ? std::numeric_limits<int64_t>::max() : limits_.failures_per_email_all_addresses;
    PARLEY_ASSIGN_OR_RETURN(WindowTake e, SharedWindowRepo::take(c, by_email, window, 1, ceiling));
    if (e.taken == 0) {
      PARLEY_TRY(SharedWindowRepo::give_back(c, by_pair, window, 1));
      return SharedWindowRepo::give_back(c, by_address, window, 1);
    }
    allowed = true;
    return {};
  }));
  if (allowed) return int64_t{0};
  return std::max<int64_t>(1, (window + limits_.window_ms - now + 999) / 1000);
}

void LoginThrottle::succeeded_shared(std::string_view email, std::string_view address, int64_t now) {
  const int64_t window = now - now % limits_.window_ms;
  const std::string by_pair = subject_name("login-pair:", pair_of(email, address));
  const std::string by_address = subject_name("login-address:", address);
  const std::string by_email = subject_name("login-email:", email);
  const std::string known_name = known_pair_name(email, address);
  auto done = shared_->write_volatile([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SharedWindowRepo::forget(c, by_pair));
    // Its window starts at this sign-in: the pair is known for known_pair_ms from the last one.
    PARLEY_TRY(SharedWindowRepo::take(c, known_name, now, 1, 1));
    PARLEY_TRY(SharedWindowRepo::give_back(c, by_address, window, 1));
    return SharedWindowRepo::give_back(c, by_email, window, 1);
  });
  if (!done.ok()) log_warn("login count not reset in the database", {{"error", std::string_view(done.error().message)}});
}

int64_t LoginThrottle::begin(std::string_view email, std::string_view address) {
  int64_t now = clock_.now_ms();
  if (shared_ != nullptr) {
    auto counted = begin_shared(email, address, now);
    if (counted.ok()) return *counted;
    // The database cannot count: this node's memory does meanwhile.
    log_warn("login attempt not counted in the database", {{"error", std::string_view(counted.error().message)}});
  }
  std::lock_guard lock(mu_);
  const std::string pair = pair_of(email, address);
  by_pair_.expire(now);
  by_address_.expire(now);
  by_email_.expire(now);
  int64_t blocked_until = 0;
  if (by_pair_.count(pair, now) >= limits_.failures_per_email) {
    blocked_until = std::max(blocked_until, by_pair_.ends_at(pair));
  }
  if (by_address_.count(address, now) >= limits_.failures_per_address) {
    blocked_until = std::max(blocked_until, by_address_.ends_at(address));
  }
  known_.expire(now);
  if (by_email_.count(email, now) >= limits_.failures_per_email_all_addresses &&
      known_.count(pair, now) == 0) {
    blocked_until = std::max(blocked_until, by_email_.ends_at(email));
  }
  if (blocked_until > 0) return std::max<int64_t>(1, (blocked_until - now + 999) / 1000);
  by_pair_.add(pair, now);
  by_address_.add(address, now);
  by_email_.add(email, now);
  return 0;
}

void LoginThrottle::succeeded(std::string_view email, std::string_view address) {
  if (shared_ != nullptr) succeeded_shared(email, address, clock_.now_ms());
  std::lock_guard lock(mu_);
  const int64_t now = clock_.now_ms();
  known_.forget(pair_of(email, address));  // known for known_pair_ms from this sign-in
  known_.add(pair_of(email, address), now);
  by_pair_.forget(pair_of(email, address));
  by_address_.uncount(address);
  by_email_.uncount(email);
}

size_t LoginThrottle::tracked() const {
  std::lock_guard lock(mu_);
  return by_pair_.size() + by_address_.size() + by_email_.size();
}

}  // namespace parley
