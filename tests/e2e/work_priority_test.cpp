// `serve --work-nice N` (core/thread_priority.h): the threads that write and reply run at
// niceness N; the I/O threads and the threads serve starts itself, the outbound HTTP loop and the
// stream heartbeats, keep the process's own.
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "chat_support.h"

namespace parley::e2e {
namespace {

struct ThreadInfo {
  std::string name;
  int nice = 0;
};

// Every thread of the process: its name and niceness, from /proc/PID/task/TID/stat.
std::vector<ThreadInfo> threads_of(pid_t pid) {
  std::vector<ThreadInfo> out;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    ThreadInfo t;
    t.name = stat.substr(open + 1, close - open - 1);
    // After the name: state (field 3) ... nice (field 19).
    std::istringstream fields(stat.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 19 && fields >> field; ++i) {
    }
    t.nice = std::stoi(field);
    out.push_back(t);
  }
  return out;
}

TEST(WorkPriority, ServeRunsItsWorkThreadsAtTheWorkNicenessAndTheOthersAtItsOwn) {
  const int own = getpriority(PRIO_PROCESS, 0);
  if (own >= 12) GTEST_SKIP() << "the tests run at niceness " << own;
  Server s(unlimited(), {"--work-nice", "12"});
  auto c = chat_setup(s);
  ASSERT_EQ(chat(s, c, {{"message", "Hello"}}).status, 200);  // the pools' threads have run
  std::map<int, int> by_nice;
  std::map<std::string, int> named;
  for (const auto& t : threads_of(s.pid())) {
    ++by_nice[t.nice];
    if (t.name == "outbound" || t.name == "heartbeats") named[t.name] = t.nice;
  }
  EXPECT_GT(by_nice[12], 0);   // the pools and the database's writer
  EXPECT_GT(by_nice[own], 0);  // the main and I/O threads
  ASSERT_EQ(named.count("outbound"), 1u);
  ASSERT_EQ(named.count("heartbeats"), 1u);
  EXPECT_EQ(named["outbound"], own);
  EXPECT_EQ(named["heartbeats"], own);
}

}  // namespace
}  // namespace parley::e2e
