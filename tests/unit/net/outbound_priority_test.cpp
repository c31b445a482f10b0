// The outbound loop times every outbound call (a webhook's timeout), so it must not run at the
// work niceness: started first by the thread that runs a node, it keeps that thread's priority
// even when a work thread is the first to send.
#include <gtest/gtest.h>

#include <future>

#include "core/thread_pool.h"
#include "core/thread_priority.h"
#include "net/outbound.h"

namespace parley {
namespace {

TEST(OutboundLoopPriority, StartedFirstItKeepsItsStartersNicenessWhenAWorkThreadSendsFirst) {
  const int before = current_thread_nice();
  if (before >= 19) GTEST_SKIP() << "the test runs at the highest niceness already";
  start_outbound_loop();
  set_work_nice(19);
  std::promise<int> loop_nice;
  int pool_nice = -1;
  {
    ThreadPool pool(1);
    pool.post([&] {
      pool_nice = current_thread_nice();
      TransferCall call;
      call.request.url = "http://127.0.0.1:1/";  // refused at once: only the callback matters
      call.request.timeout_ms = 2000;
      call.request.connect_timeout_ms = 2000;
      call.done = [&](SendOutcome) { loop_nice.set_value(current_thread_nice()); };
      start_transfer(std::move(call));
    });
    EXPECT_EQ(loop_nice.get_future().get(), before);
  }
  set_work_nice(0);
  EXPECT_EQ(pool_nice, 19);
}

}  // namespace
}  // namespace parley
