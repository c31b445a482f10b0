// Runs a program as a child process and collects what it wrote, for tests. Thread-safe (each call
// has its own temporary files).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace parley::e2e {

// Runs a command with extra environment variables; returns exit code, stdout, stderr.
struct ProcessResult {
  int exit_code;
  std::string out;
  std::string err;
};
ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env);

// A program to run in a child process, with this process's environment plus `env`, prepared
// before fork(). A test process has other threads (servers, receivers): after fork() the child
// may call only async-signal-safe functions until it execs, since another thread may have held
// the allocator's lock at the fork, so the child must not build strings or call setenv.
class ExecPlan {
 public:
  ExecPlan(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env);
  ExecPlan(const ExecPlan&) = delete;  // argv_ and envp_ point into strings_
  ExecPlan& operator=(const ExecPlan&) = delete;
  // In the child: execs the program; _exit(127) when that fails.
  [[noreturn]] void exec() const;

 private:
  std::vector<std::string> strings_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

}  // namespace parley::e2e
