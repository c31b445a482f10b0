#include "process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace parley::e2e {

namespace {
std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env) {
  char out_tpl[] = "/tmp/parley-e2e-outXXXXXX";
  char err_tpl[] = "/tmp/parley-e2e-errXXXXXX";
  int out_fd = mkstemp(out_tpl);
  int err_fd = mkstemp(err_tpl);
  const ExecPlan plan(argv, env);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    plan.exec();
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(out_fd);
  close(err_fd);
  ProcessResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out_tpl), read_file(err_tpl)};
  unlink(out_tpl);
  unlink(err_tpl);
  return r;
}

ExecPlan::ExecPlan(const std::vector<std::string>& argv,
                   const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> merged;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    size_t eq = entry.find('=');
    if (eq != std::string::npos) merged[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [k, v] : env) merged[k] = v;
  strings_.reserve(argv.size() + merged.size());
  for (const auto& a : argv) strings_.push_back(a);
  for (const auto& [k, v] : merged) strings_.push_back(k + "=" + v);
  // Pointers taken once the strings no longer move.
  for (size_t i = 0; i < argv.size(); ++i) argv_.push_back(strings_[i].data());
  argv_.push_back(nullptr);
  for (size_t i = argv.size(); i < strings_.size(); ++i) envp_.push_back(strings_[i].data());
  envp_.push_back(nullptr);
}

void ExecPlan::exec() const {
  execve(argv_[0], argv_.data(), envp_.data());
  _exit(127);
}

}  // namespace parley::e2e
