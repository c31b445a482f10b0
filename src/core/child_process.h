// Runs a program as a child process with bytes on its standard input and its standard output
// read back, for work that must not take the server with it: a reader of untrusted documents
// whose library has no budget of its own (extract/isolated_reader.h). The child starts from
// posix_spawn (safe in a process of many threads) with the environment it is given (none by
// default: the node's secrets stay out), the default signal dispositions, an empty signal mask and
// only its standard streams open; its input is a memory file, so the child may read it at its own
// pace and the parent never blocks writing; the last bytes of its standard error are kept. The
// parent kills the child (SIGKILL) at the wall-clock deadline or once it has written more than
// allowed, and always reaps it, also when the call is left by an exception.
// `stop_child_processes()` kills every child running and refuses new ones: the node's shutdown
// calls it, so a child does not hold it.
// The process must not ignore SIGCHLD (its children would be reaped behind run_child's back; the
// setup of a process that runs children resets it, extract/isolated_reader.h). A child that asks
// the kernel to signal it when its parent ends (PR_SET_PDEATHSIG) is signalled when the thread that
// started it ends, and run_child holds that thread until the child is reaped.
// Thread-safe: each call has its own child; the registry of running children is locked.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

struct ChildCall {
  std::string executable;         // a path (no PATH search); "/proc/self/exe" for this program
  std::vector<std::string> args;  // argv[1..]; argv[0] is the executable
  std::string_view input;         // the child's standard input
  std::vector<std::string> environment;        // "NAME=value" each; the child's whole environment
  std::chrono::milliseconds deadline{10'000};  // wall time, from the start
  size_t max_output = 64u << 20;               // bytes of standard output
  size_t max_error_tail = 4096;                // the last bytes of standard error kept
};

struct ChildOutcome {
  enum class End {
    kExited,         // `status` is the exit code
    kSignalled,      // `status` is the signal that ended it (its own, or a limit's)
    kTimedOut,       // killed at the deadline
    kOutputTooLong,  // killed once its output passed max_output
    kStopped,        // killed by stop_child_processes(), or refused after it
    kNotStarted,     // posix_spawn or a pipe failed; `status` is errno
    kUnknown,        // its end could not be learnt (something else reaped it); `status` is errno
  };
  End end = End::kNotStarted;
  int status = 0;
  std::string output;      // what it wrote to standard output, when it exited
  std::string error_tail;  // the last bytes it wrote to standard error
  int64_t cpu_ms = 0;      // the CPU time it used (user and system)
};

ChildOutcome run_child(const ChildCall& call);

// Kills the children running (SIGKILL) and makes later run_child calls return kStopped at once.
void stop_child_processes();

}  // namespace parley
