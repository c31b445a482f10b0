#include "core/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <utility>

namespace parley {

namespace {

using Clock = std::chrono::steady_clock;

// The children running, so that shutdown can kill them. A pid leaves the set before it is reaped,
// so a pid in the set is never another process's.
struct Registry {
  std::mutex mu;
  std::unordered_set<pid_t> running;
  bool stopped = false;
};

Registry& registry() {
  static Registry r;
  return r;
}

// An open file descriptor, closed when it goes.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) reset(std::exchange(other.fd_, -1));
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// `fd` moved to a number above the standard streams' (a process started with one of them closed
// hands out 0, 1 or 2), so that the child's dup2 onto a standard stream always clears
// close-on-exec.
Fd above_standard_streams(Fd fd) {
  if (!fd.ok() || fd.get() > STDERR_FILENO) return fd;
  return Fd(::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1));
}

// A memory file holding `bytes`, positioned at its start.
Fd memory_file_of(std::string_view bytes) {
  Fd fd(static_cast<int>(::syscall(SYS_memfd_create, "parley-child-input", MFD_CLOEXEC)));
  if (!fd.ok()) return fd;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;
    if (n <= 0) return Fd();
    done += static_cast<size_t>(n);
  }
  if (::lseek(fd.get(), 0, SEEK_SET) != 0) return Fd();
  return above_standard_streams(std::move(fd));
}

// The child's start: standard input, output and error, nothing else open, default signals, no
// mask.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup(int in, int out, int err) {
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err, STDERR_FILENO);
    posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup() {
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
  }
};

ChildOutcome ended_as(ChildOutcome::End end, int status = 0) {
  ChildOutcome out;
  out.end = end;
  out.status = status;
  return out;
}

// The read and write ends of a pipe, the write end above the standard streams.
bool make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end.reset(fds[0]);
  write_end = above_standard_streams(Fd(fds[1]));
  return write_end.ok();
}

// Registers a child just started; false (and the child killed) when shutdown has begun.
bool enter(pid_t pid) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  if (r.stopped) {
    ::kill(pid, SIGKILL);
    return false;
  }
  r.running.insert(pid);
  return true;
}

// Takes a child that has ended, or been killed, out of the registry; true when shutdown had begun.
bool leave(pid_t pid) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.running.erase(pid);
  return r.stopped;
}

// A child started and not yet reaped. Reaped by `reap`; one left otherwise (an exception) is
// killed and reaped as it goes, so none is left running or a zombie.
class Running {
 public:
  explicit Running(pid_t pid) : pid_(pid) {}
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;
  ~Running() {
    if (pid_ == 0) return;
    ::kill(pid_, SIGKILL);
    leave(pid_);
    int status = 0;
    reap(status);
  }
  // Waits for its end; false when it cannot be waited for (something else reaped it).
  bool reap(int& status, rusage* usage = nullptr) {
    pid_t pid = std::exchange(pid_, 0);
    for (;;) {
      if (::wait4(pid, &status, 0, usage) == pid) return true;
      if (errno != EINTR) return false;
    }
  }

 private:
  pid_t pid_;
};

// Whether the child has ended, without reaping it, waiting until `deadline` at most: on its pidfd
// when there is one, else by asking every few milliseconds.
bool ended_by(pid_t pid, int pidfd, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (pidfd >= 0) {
      if (left <= 0) return false;
      pollfd fds[1] = {{pidfd, POLLIN, 0}};
      int ready = ::poll(fds, 1, static_cast<int>(std::min<long long>(left, 60'000)));
      if (ready > 0) return true;
      if (ready < 0 && errno != EINTR) pidfd = -1;
      continue;
    }
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid == pid)
      return true;  // ended, or not ours to wait for (reap says which)
    if (left <= 0) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min<long long>(left, 5)));
  }
}

}  // namespace

ChildOutcome run_child(const ChildCall& call) {
  using End = ChildOutcome::End;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mu);
    if (r.stopped) return ended_as(End::kStopped);
  }
  const Clock::time_point deadline = Clock::now() + call.deadline;
  Fd input = memory_file_of(call.input);
  if (!input.ok()) return ended_as(End::kNotStarted, errno);
  Fd out_read, out_write, err_read, err_write;
  if (!make_pipe(out_read, out_write) || !make_pipe(err_read, err_write))
    return ended_as(End::kNotStarted, errno);

  std::vector<char*> argv, envp;
  argv.push_back(const_cast<char*>(call.executable.c_str()));
  for (const std::string& a : call.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : call.environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  int spawned = 0;
  {
    SpawnSetup setup(input.get(), out_write.get(), err_write.get());
    spawned = ::posix_spawn(&pid, call.executable.c_str(), &setup.actions, &setup.attr, argv.data(),
                            envp.data());
  }
  if (spawned != 0) return ended_as(End::kNotStarted, spawned);
  Running child(pid);
  out_write.reset();
  err_write.reset();
  input.reset();
  const bool entered = enter(pid);
  // Readable when the child has ended, whether or not it closed its output first.
  Fd ended(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));

  ChildOutcome out;
  bool killed_at_deadline = false, killed_for_output = false;
  bool out_open = entered, err_open = entered;
  char buffer[64 * 1024];
  while (out_open || err_open) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      killed_at_deadline = true;
      break;
    }
    pollfd fds[2] = {{out_open ? out_read.get() : -1, POLLIN, 0},
                     {err_open ? err_read.get() : -1, POLLIN, 0}};
    int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left, 60'000)));
    if (ready < 0 && errno != EINTR) {
      killed_at_deadline = true;  // it can no longer be watched: ended now
      break;
    }
    if (ready <= 0) continue;
    if (fds[0].revents != 0) {
      ssize_t n = ::read(out_read.get(), buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        out_open = false;  // the child closed its output
      } else if (out.output.size() + static_cast<size_t>(n) > call.max_output) {
        killed_for_output = true;
        break;
      } else {
        out.output.append(buffer, static_cast<size_t>(n));
      }
    }
    if (fds[1].revents != 0) {
      ssize_t n = ::read(err_read.get(), buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        err_open = false;
      } else {
        out.error_tail.append(buffer, static_cast<size_t>(n));
        if (out.error_tail.size() > call.max_error_tail)
          out.error_tail.erase(0, out.error_tail.size() - call.max_error_tail);
      }
    }
  }
  // Its streams closed: the child ends now, or is ended at the deadline.
  if (entered && !killed_at_deadline && !killed_for_output && !ended_by(pid, ended.get(), deadline))
    killed_at_deadline = true;
  if (killed_at_deadline || killed_for_output) ::kill(pid, SIGKILL);
  const bool stopping = leave(pid);
  int status = 0;
  rusage usage{};
  if (!child.reap(status, &usage)) return ended_as(End::kUnknown, errno);
  out.cpu_ms = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 +
               (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000;
  if (killed_at_deadline) {
    out.end = End::kTimedOut;
  } else if (killed_for_output) {
    out.end = End::kOutputTooLong;
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && (stopping || !entered)) {
    out.end = End::kStopped;
  } else if (WIFSIGNALED(status)) {
    out.end = End::kSignalled;
    out.status = WTERMSIG(status);
  } else {
    out.end = End::kExited;
    out.status = WEXITSTATUS(status);
  }
  if (out.end != End::kExited) out.output.clear();
  return out;
}

void stop_child_processes() {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.stopped = true;
  for (pid_t pid : r.running) ::kill(pid, SIGKILL);
}

}  // namespace parley
