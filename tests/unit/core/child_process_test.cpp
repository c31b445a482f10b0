// Child processes: input in, output back, exit codes and signals told apart, and a child killed at
// its deadline, past its output allowance, or when the process stops its children.
#include "core/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <thread>

namespace parley {
namespace {

ChildCall shell(std::string script, std::string_view input = {}) {
  ChildCall call;
  call.executable = "/bin/sh";
  call.args = {"-c", std::move(script)};
  call.input = input;
  return call;
}

TEST(ChildProcess, ItsInputIsReadAndItsOutputComesBack) {
  std::string input(5 << 20, 'x');
  for (size_t i = 0; i < input.size(); i += 4096) input[i] = static_cast<char>('a' + i % 26);
  ChildOutcome out = run_child(shell("cat", input));
  EXPECT_EQ(out.end, ChildOutcome::End::kExited);
  EXPECT_EQ(out.status, 0);
  EXPECT_EQ(out.output, input);
}

TEST(ChildProcess, AParentWhoseStandardStreamsAreClosedStillGivesTheChildItsOwn) {
  // A server started with standard input and output closed hands out 0 and 1 for the input's
  // memory file and the output's pipe.
  int saved_in = ::dup(STDIN_FILENO), saved_out = ::dup(STDOUT_FILENO);
  ::close(STDIN_FILENO);
  ::close(STDOUT_FILENO);
  ChildOutcome out = run_child(shell("cat", "through"));
  ::dup2(saved_in, STDIN_FILENO);
  ::dup2(saved_out, STDOUT_FILENO);
  ::close(saved_in);
  ::close(saved_out);
  EXPECT_EQ(out.end, ChildOutcome::End::kExited);
  EXPECT_EQ(out.output, "through");
}

TEST(ChildProcess, AnExitCodeAndASignalAreToldApart) {
  ChildOutcome exited = run_child(shell("printf partial; exit 7"));
  EXPECT_EQ(exited.end, ChildOutcome::End::kExited);
  EXPECT_EQ(exited.status, 7);
  EXPECT_EQ(exited.output, "partial");
  ChildOutcome signalled = run_child(shell("printf partial; kill -USR1 $$"));
  EXPECT_EQ(signalled.end, ChildOutcome::End::kSignalled);
  EXPECT_EQ(signalled.status, SIGUSR1);
  EXPECT_EQ(signalled.output, "");  // only a child that exits has its output kept
}

TEST(ChildProcess, TheEndOfItsStandardErrorAndItsCpuTimeAreKept) {
  ChildCall call = shell(
      "printf 'first line\\n' >&2; i=0; while [ $i -lt 50000 ]; do i=$((i+1)); done; "
      "printf 'last words' >&2; exit 3");
  call.max_error_tail = 10;
  ChildOutcome out = run_child(call);
  EXPECT_EQ(out.end, ChildOutcome::End::kExited);
  EXPECT_EQ(out.status, 3);
  EXPECT_EQ(out.error_tail, "last words");
  EXPECT_GT(out.cpu_ms, 0);
}

TEST(ChildProcess, TheChildHasOnlyTheEnvironmentItIsGiven) {
  ::setenv("PARLEY_CHILD_TEST_SECRET", "not for children", 1);
  ChildCall call;
  call.executable = "/usr/bin/env";
  call.environment = {"ONLY=this"};
  ChildOutcome out = run_child(call);
  ::unsetenv("PARLEY_CHILD_TEST_SECRET");
  EXPECT_EQ(out.end, ChildOutcome::End::kExited);
  EXPECT_EQ(out.output, "ONLY=this\n");
}

TEST(ChildProcess, OnlyTheStandardStreamsAreOpenInTheChild) {
  // /proc/self/fd of `ls` holds 0, 1, 2 and the directory ls reads it through.
  ChildOutcome out = run_child(shell("ls /proc/self/fd | wc -l"));
  EXPECT_EQ(out.end, ChildOutcome::End::kExited);
  EXPECT_EQ(out.output, "4\n");
}

TEST(ChildProcess, AChildStillRunningAtItsDeadlineIsKilled) {
  ChildCall call = shell("exec sleep 30");
  call.deadline = std::chrono::milliseconds(200);
  ChildOutcome out = run_child(call);
  EXPECT_EQ(out.end, ChildOutcome::End::kTimedOut);
  // A child that closed its output and goes on is held to the deadline too.
  call = shell("exec sleep 30 >&-");
  call.deadline = std::chrono::milliseconds(200);
  EXPECT_EQ(run_child(call).end, ChildOutcome::End::kTimedOut);
}

TEST(ChildProcess, AChildWritingPastItsAllowanceIsKilled) {
  ChildCall call = shell("exec yes");
  call.max_output = 100'000;
  ChildOutcome out = run_child(call);
  EXPECT_EQ(out.end, ChildOutcome::End::kOutputTooLong);
  EXPECT_EQ(out.output, "");
}

TEST(ChildProcess, AProgramThatCannotStartIsNotStarted) {
  ChildCall call;
  call.executable = "/nonexistent/program";
  ChildOutcome out = run_child(call);
  // posix_spawn reports exec's failure (glibc starts the child with clone and waits for exec).
  EXPECT_EQ(out.end, ChildOutcome::End::kNotStarted);
  EXPECT_EQ(out.status, ENOENT);
}

TEST(ChildProcessDeathTest, StoppingKillsTheChildrenRunningAndRefusesNewOnes) {
  // In a process of its own: stopping is for good.
  EXPECT_EXIT(
      {
        char marker[] = "/tmp/parley_child_XXXXXX";
        int fd = ::mkstemp(marker);
        ::close(fd);
        ::unlink(marker);
        ChildOutcome running;
        std::thread runner([&] {
          running = run_child(shell(std::string("touch ") + marker + "; exec sleep 30"));
        });
        // Stopped once it runs, not refused before it starts.
        for (int i = 0; i < 2000 && ::access(marker, F_OK) != 0; ++i)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        stop_child_processes();
        runner.join();
        ::unlink(marker);
        ChildOutcome later = run_child(shell("exit 0"));
        bool ok =
            running.end == ChildOutcome::End::kStopped && later.end == ChildOutcome::End::kStopped;
        std::_Exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace parley
