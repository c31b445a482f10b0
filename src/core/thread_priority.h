// The scheduling priority of the threads that do a node's heavy work: the blocking pool (handlers
// that write), the reply pool (chat engines) and the database's writer threads. `serve` runs them
// at a niceness above the I/O threads', which answer reads from memory (an agent, a key), so that
// under a write storm the reads still get the cores: Linux's scheduler gives a thread of nice 10
// about a tenth of the CPU a nice-0 thread wants beside it, and everything when nothing else is
// runnable, so a node that only writes runs as fast as before. Niceness is per thread on Linux,
// and weighs against the other threads of the same cgroup (a container's own processes).
// Process-wide: set once, before the threads start. A new thread takes the niceness of the thread
// that makes it, so a thread meant to run beside the I/O threads (the outbound loop, the stream
// heartbeats) is started by `serve` itself, never first made by a work thread.
#pragma once

namespace parley {

// The niceness work threads take (0–19; 0: as the I/O threads). Default 0 (tests, admin
// commands); `serve` sets it from --work-nice before it opens the database.
void set_work_nice(int nice);
int work_nice();
// The calling thread's niceness (Linux: niceness is per thread).
int current_thread_nice();
// Called by a work thread as it starts: takes the work niceness unless it already has a higher
// one (best effort; nothing when 0).
void enter_work_priority();

}  // namespace parley
