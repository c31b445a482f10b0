#include "core/clock.h"

#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include "core/log.h"

namespace parley {

int64_t SystemClock::now_ms() const {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

int64_t OffsetFileClock::now_ms() const {
  struct stat st {};
  uint64_t inode = 0;
  int64_t change_ns = 0;
  if (::stat(path_.c_str(), &st) == 0) {
    inode = st.st_ino;
    change_ns = int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
  }
  std::lock_guard lock(mu_);
  if (inode != seen_inode_ || change_ns != seen_change_ns_) {
    seen_inode_ = inode;
    seen_change_ns_ = change_ns;
    int64_t offset = 0;
    std::ifstream in(path_);
    if (!(in >> offset)) offset = 0;
    offset_ms_ = offset;
  }
  return SystemClock().now_ms() + offset_ms_;
}

namespace {
bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}
}  // namespace

Result<std::unique_ptr<Clock>> serve_clock(const std::string& test_clock_file, const std::string& listen_host) {
  if (test_clock_file.empty()) return std::unique_ptr<Clock>(std::make_unique<SystemClock>());
  if (!is_loopback(listen_host))
    return ApiError::invalid("--test-clock-file is for tests only and needs a loopback --listen address");
  log_warn("TEST CLOCK: the time is moved by the offset in a file; for tests only, never in production",
           {{"file", std::string_view(test_clock_file)}});
  return std::unique_ptr<Clock>(std::make_unique<OffsetFileClock>(test_clock_file));
}

}  // namespace parley
