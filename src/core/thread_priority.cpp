#include "core/thread_priority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

namespace parley {

namespace {
std::atomic<int> g_work_nice{0};

// getpriority() and setpriority() with a thread id read and set that thread's niceness alone
// (Linux).
id_t this_thread_id() { return static_cast<id_t>(syscall(SYS_gettid)); }
}  // namespace

void set_work_nice(int nice) { g_work_nice.store(std::clamp(nice, 0, 19)); }

int work_nice() { return g_work_nice.load(); }

int current_thread_nice() { return getpriority(PRIO_PROCESS, this_thread_id()); }

void enter_work_priority() {
  const int nice = work_nice();
  if (nice <= 0) return;
  // Only ever raised: a node started with a higher niceness (`nice -n 15`) keeps it.
  errno = 0;
  const int now = current_thread_nice();
  if (errno == 0 && now >= nice) return;
  // Needs no privilege; a failure changes nothing.
  (void)setpriority(PRIO_PROCESS, this_thread_id(), nice);
}

}  // namespace parley
