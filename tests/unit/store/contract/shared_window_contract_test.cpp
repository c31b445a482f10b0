// Counters every node counts in: SharedWindowRepo::take caps a block at the limit, and
// SharedRateCounter (the per-key rate limit on a shared database) never lets more requests
// through than the limit, exactly near it and with allowances far from it, across two handles on
// the same store as two nodes would.
#include <atomic>
#include <limits>

#include "domain/shared_rate_counter.h"
#include "store/shared_window_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

constexpr int64_t kWindow = 1'790'000'040'000 - 1'790'000'040'000 % 60'000;

int64_t stored_count(Connection& c, const std::string& name) {
  auto n = c.query_int("SELECT count FROM shared_windows WHERE name = $1", {name});
  return n.ok() && n->has_value() ? **n : -1;
}

using Taken = std::pair<int64_t, int64_t>;  // count, taken

TEST_P(StoreContract, SharedWindowTakesABlockUpToTheCapAndNothingPastIt) {
  auto take = [&](int64_t window, int64_t wanted) {
    WindowTake t{0, 0};
    write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(t, SharedWindowRepo::take(c, "rate:k", window, wanted, 25));
      return {};
    });
    return Taken(t.count, t.taken);
  };
  EXPECT_EQ(take(kWindow, 10), Taken(10, 10));
  EXPECT_EQ(take(kWindow, 10), Taken(20, 10));
  EXPECT_EQ(take(kWindow, 10), Taken(25, 5));   // capped
  EXPECT_EQ(take(kWindow, 10), Taken(25, 0));   // refused, not counted
  EXPECT_EQ(take(kWindow - 60'000, 1), Taken(25, 0));  // a clock behind
  EXPECT_EQ(take(kWindow + 60'000, 4), Taken(4, 4));   // the next minute
  write([&](Connection& c) { return SharedWindowRepo::give_back(c, "rate:k", kWindow, 3); });  // ended
  EXPECT_EQ(stored_count(reader(), "rate:k"), 4);
  write([&](Connection& c) { return SharedWindowRepo::give_back(c, "rate:k", kWindow + 60'000, 3); });
  EXPECT_EQ(stored_count(reader(), "rate:k"), 1);
}

// peek reads a window's count without adding to it; the purge keeps a lasting counter (a console
// member's known sign-in address, 30 days) for 31 days past the others' cut-off.
TEST_P(StoreContract, SharedWindowPeekAddsNothingAndThePurgeKeepsLastingCounters) {
  const std::string lasting = std::string(SharedWindowRepo::kLastingPrefix) + "login-known:x";
  constexpr int64_t kDay = 86'400'000;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SharedWindowRepo::take(c, "rate:old", kWindow - 3 * kDay, 1, 10));
    PARLEY_TRY(SharedWindowRepo::take(c, lasting, kWindow - 20 * kDay, 1, 1));
    PARLEY_TRY(SharedWindowRepo::take(c, lasting + "-older", kWindow - 40 * kDay, 1, 1));
    return {};
  });
  int64_t peeked = -1, missing = -1, too_old = -1;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(peeked, SharedWindowRepo::peek(c, lasting, kWindow - 30 * kDay));
    PARLEY_ASSIGN_OR_RETURN(too_old, SharedWindowRepo::peek(c, lasting, kWindow - 10 * kDay));
    PARLEY_ASSIGN_OR_RETURN(missing, SharedWindowRepo::peek(c, "rate:none", kWindow));
    return {};
  });
  EXPECT_EQ(peeked, 1);
  EXPECT_EQ(too_old, 0);
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(stored_count(reader(), "rate:none"), -1);  // nothing was added
  int64_t purged = 0;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(purged, SharedWindowRepo::purge(c, kWindow - 2 * kDay));
    return {};
  });
  EXPECT_EQ(purged, 2);
  EXPECT_EQ(stored_count(reader(), "rate:old"), -1);
  EXPECT_EQ(stored_count(reader(), lasting), 1);
  EXPECT_EQ(stored_count(reader(), lasting + "-older"), -1);
}

TEST_P(StoreContract, SharedRateCounterNearTheLimitCountsEveryRequestExactly) {
  // Below kNearLimit every request is its own statement: exactly the limit gets through.
  const int64_t limit = SharedRateCounter::kNearLimit - 1;
  SharedRateCounter node_a(db(), limit);
  // The second handle stands for a second node.
  std::unique_ptr<SharedRateCounter> node_b;
  std::atomic<int64_t> allowed{0};
  std::mutex mu;
  concurrently([&](int, Database& handle) {
    SharedRateCounter* counter = &node_a;
    if (&handle != &db()) {
      std::lock_guard lock(mu);
      if (!node_b) node_b = std::make_unique<SharedRateCounter>(handle, limit);
      counter = node_b.get();
    }
    for (int i = 0; i < 60; ++i) {
      auto n = counter->hit("key", kWindow, kWindow + 1000);
      ASSERT_TRUE(n.ok()) << n.error().message;
      if (*n <= limit) ++allowed;
    }
  });
  EXPECT_EQ(allowed.load(), limit);
  EXPECT_EQ(stored_count(reader(), "rate:key"), limit);  // refusals not counted, nothing held
}

TEST_P(StoreContract, SharedRateCounterFarFromTheLimitSpendsAllowancesAndGivesBackWhatIsLeft) {
  SharedRateCounter counter(db(), 1'000'000);
  int64_t now = kWindow + 1000;
  for (int64_t i = 1; i <= 20'000; ++i) {
    auto n = counter.hit("busy", kWindow, now);
    ASSERT_TRUE(n.ok()) << n.error().message;
    ASSERT_EQ(*n, i);  // one node alone: each request's count is exact
    if (i % 50 == 0) ++now;
  }
  // A busy key holds an allowance counted in the database ahead of the requests it serves...
  EXPECT_GT(stored_count(reader(), "rate:busy"), 20'000);
  // ...that is given back once expired, and not before.
  counter.return_unused(now, /*expired_only=*/true);
  EXPECT_GT(stored_count(reader(), "rate:busy"), 20'000);
  counter.return_unused(now + SharedRateCounter::kAllowanceLifeMs, /*expired_only=*/true);
  EXPECT_EQ(stored_count(reader(), "rate:busy"), 20'000);
  // A quiet key never takes one.
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(counter.hit("quiet", kWindow, now + 1000 * i).ok());
  EXPECT_EQ(stored_count(reader(), "rate:quiet"), 5);
}

TEST_P(StoreContract, SharedRateCounterAllowancesOnTwoNodesNeverPassTheLimit) {
  const int64_t limit = 5000;
  SharedRateCounter a(db(), limit);
  SharedRateCounter b(other(), limit);
  int64_t allowed = 0, now = kWindow + 1000;
  bool a_open = true, b_open = true;
  for (int round = 0; round < 3 && (a_open || b_open); ++round) {
    a_open = b_open = true;
    while (a_open || b_open) {
      for (auto* node : {&a, &b}) {
        auto n = node->hit("shared", kWindow, now);
        ASSERT_TRUE(n.ok()) << n.error().message;
        if (*n <= limit) {
          ++allowed;
        } else {
          (node == &a ? a_open : b_open) = false;
        }
      }
      ++now;
      ASSERT_LE(allowed, limit);
    }
    // What either node still held goes back, and the other may spend it.
    a.return_unused(now, false);
    b.return_unused(now, false);
  }
  EXPECT_EQ(allowed, limit);
}

}  // namespace
}  // namespace parley
