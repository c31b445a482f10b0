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

}  // namespace parley::e2e
