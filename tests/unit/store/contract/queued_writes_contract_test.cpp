// A stopping server waits for the writes still queued: wait_for_queued_writes() returns once each
// has run, its callback included, and what it held has been let go of.
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "store_contract.h"

namespace parley {
namespace {

TEST_P(StoreContract, WaitingForQueuedWritesWaitsForTheirCallbacksAndWhatTheyHold) {
  constexpr int kWrites = 6;
  auto held = std::make_shared<int>(0);  // each queued write and its callback hold a copy
  std::atomic<int> ran{0};
  std::atomic<int> called_back{0};
  for (int i = 0; i < kWrites; ++i) {
    db().write_then(
        [held, &ran](Connection&) -> Result<void> {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          ++ran;
          return {};
        },
        [held, &called_back](Result<void> r) {
          EXPECT_TRUE(r.ok());
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          ++called_back;
        });
  }
  db().write_async([held, &ran](Connection&) -> Result<void> {
    ++ran;
    return {};
  });
  db().wait_for_queued_writes();
  EXPECT_EQ(ran.load(), kWrites + 1);
  EXPECT_EQ(called_back.load(), kWrites);
  EXPECT_EQ(held.use_count(), 1);
}

}  // namespace
}  // namespace parley
