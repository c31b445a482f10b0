#include "core/cpu_count.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(UsableCpus, TheAffinityMaskAloneCounts) {
  CpuLimits l;
  l.affinity_cpus = 3;
  EXPECT_EQ(usable_cpus(l, 8), 3u);
}

TEST(UsableCpus, ACgroupV2QuotaCapsTheMaskRoundedUp) {
  CpuLimits l;
  l.affinity_cpus = 8;
  l.cpu_max = "150000 100000\n";
  EXPECT_EQ(usable_cpus(l, 8), 2u);
  l.cpu_max = "50000 100000\n";
  EXPECT_EQ(usable_cpus(l, 8), 1u);
}

TEST(UsableCpus, NoV2QuotaLeavesTheMask) {
  CpuLimits l;
  l.affinity_cpus = 4;
  l.cpu_max = "max 100000\n";
  EXPECT_EQ(usable_cpus(l, 8), 4u);
}

TEST(UsableCpus, AQuotaLargerThanTheMaskDoesNotRaiseIt) {
  CpuLimits l;
  l.affinity_cpus = 1;
  l.cpu_max = "400000 100000";
  EXPECT_EQ(usable_cpus(l, 8), 1u);
}

TEST(UsableCpus, ACgroupV1QuotaCapsTheMask) {
  CpuLimits l;
  l.affinity_cpus = 16;
  l.cfs_quota = "300000\n";
  l.cfs_period = "100000\n";
  EXPECT_EQ(usable_cpus(l, 8), 3u);
  l.cfs_quota = "-1\n";
  EXPECT_EQ(usable_cpus(l, 8), 16u);
}

TEST(UsableCpus, UnreadableFiguresFallBack) {
  CpuLimits l;
  l.cpu_max = "garbage";
  EXPECT_EQ(usable_cpus(l, 6), 6u);
  l.cpu_max = "0 100000";
  EXPECT_EQ(usable_cpus(l, 6), 6u);
  EXPECT_EQ(usable_cpus(CpuLimits{}, 0), 1u);
}

TEST(UsableCpus, TheSystemFigureIsAtLeastOne) { EXPECT_GE(usable_cpu_count(), 1u); }

}  // namespace
}  // namespace parley
