#include "core/cpu_count.h"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace parley {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

std::optional<long long> number(std::string_view s) {
  s = trim(s);
  long long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<size_t> whole_cpus(long long quota, long long period) {
  if (quota <= 0 || period <= 0) return std::nullopt;
  return static_cast<size_t>((quota + period - 1) / period);
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The cgroup path of this process for the v2 hierarchy ("0::/path") or for the v1 cpu controller
// ("N:cpu,cpuacct:/path"), from /proc/self/cgroup.
std::string cgroup_path(std::string_view proc_cgroup, bool v2) {
  while (!proc_cgroup.empty()) {
    size_t nl = proc_cgroup.find('\n');
    std::string_view line = proc_cgroup.substr(0, nl);
    proc_cgroup = nl == std::string_view::npos ? std::string_view() : proc_cgroup.substr(nl + 1);
    size_t a = line.find(':');
    size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    std::string_view controllers = line.substr(a + 1, b - a - 1);
    std::string_view path = line.substr(b + 1);
    if (v2 && line.substr(0, a) == "0" && controllers.empty()) return std::string(path);
    if (!v2) {
      for (std::string_view rest = controllers; !rest.empty();) {
        size_t comma = rest.find(',');
        if (rest.substr(0, comma) == "cpu") return std::string(path);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    }
  }
  return {};
}

// The first readable file among the process's own cgroup directory and the hierarchy's root
// (which is what a container sees as its own).
std::optional<std::string> cgroup_file(const std::vector<std::string>& roots,
                                       const std::string& own, const char* name) {
  for (const auto& root : roots) {
    if (!own.empty() && own != "/") {
      if (auto t = read_text(root + own + "/" + name)) return t;
    }
    if (auto t = read_text(root + "/" + name)) return t;
  }
  return std::nullopt;
}

}  // namespace

std::optional<size_t> cpu_quota(const CpuLimits& limits) {
  if (limits.cpu_max) {
    std::string_view v = trim(*limits.cpu_max);
    size_t space = v.find(' ');
    std::string_view quota = v.substr(0, space);
    std::string_view period =
        space == std::string_view::npos ? std::string_view("100000") : v.substr(space + 1);
    if (quota == "max") return std::nullopt;
    auto q = number(quota);
    auto p = number(period);
    if (q && p) return whole_cpus(*q, *p);
    return std::nullopt;
  }
  if (limits.cfs_quota && limits.cfs_period) {
    auto q = number(*limits.cfs_quota);
    auto p = number(*limits.cfs_period);
    if (q && p) return whole_cpus(*q, *p);  // -1: no quota
  }
  return std::nullopt;
}

size_t usable_cpus(const CpuLimits& limits, size_t fallback) {
  size_t n = limits.affinity_cpus;
  if (auto quota = cpu_quota(limits)) n = n == 0 ? *quota : std::min(n, *quota);
  if (n == 0) n = fallback;
  return std::max<size_t>(n, 1);
}

size_t usable_cpu_count() {
  CpuLimits limits;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    limits.affinity_cpus = static_cast<size_t>(CPU_COUNT(&set));
  std::string proc = read_text("/proc/self/cgroup").value_or("");
  auto cpu_max = cgroup_file({"/sys/fs/cgroup"}, cgroup_path(proc, true), "cpu.max");
  std::optional<std::string> quota, period;
  if (!cpu_max) {
    std::vector<std::string> roots = {"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"};
    std::string own = cgroup_path(proc, false);
    quota = cgroup_file(roots, own, "cpu.cfs_quota_us");
    period = cgroup_file(roots, own, "cpu.cfs_period_us");
  }
  if (cpu_max) limits.cpu_max = *cpu_max;
  if (quota) limits.cfs_quota = *quota;
  if (period) limits.cfs_period = *period;
  return usable_cpus(limits, std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace parley
