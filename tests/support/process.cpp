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
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    for (auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
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

}  // namespace parley::e2e
