// How many CPUs the process may really use: the CPUs of its affinity mask (taskset, cpusets)
// capped by its cgroup's CPU quota (a container's CPU limit), never less than 1. Thread counts
// sized from the core count alone oversubscribe a process confined to fewer CPUs, and its threads
// then wait for each other's time slices. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace parley {

// What the limit is computed from, as read from the system (or given by a test).
struct CpuLimits {
  size_t affinity_cpus = 0;                 // CPUs in the affinity mask; 0 when unknown
  std::optional<std::string_view> cpu_max;  // cgroup v2 `cpu.max`: "max 100000" or "150000 100000"
  std::optional<std::string_view> cfs_quota;   // cgroup v1 `cpu.cfs_quota_us`: "-1" or "150000"
  std::optional<std::string_view> cfs_period;  // cgroup v1 `cpu.cfs_period_us`: "100000"
};

// The CPU quota rounded up to whole CPUs (1.5 CPUs gives 2), or nullopt without a quota.
std::optional<size_t> cpu_quota(const CpuLimits& limits);

// min(affinity, quota), at least 1; `fallback` when neither is known.
size_t usable_cpus(const CpuLimits& limits, size_t fallback);

// Reads this process's affinity mask and its cgroup's v2 or v1 CPU files.
size_t usable_cpu_count();

}  // namespace parley
