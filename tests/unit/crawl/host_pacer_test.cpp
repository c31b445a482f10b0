// Politeness per host with the time passed in: two requests at a time, the delay between starts,
// hosts apart from each other.
#include "crawl/host_pacer.h"

#include <gtest/gtest.h>

#include "crawl/user_agent.h"

namespace parley {
namespace {

TEST(HostPacerTest, AtMostTwoInFlightPerHost) {
  HostPacer pacer;
  EXPECT_EQ(pacer.try_start("a.com", 1000), 0);
  EXPECT_EQ(pacer.try_start("a.com", 1000), 0);
  EXPECT_EQ(pacer.in_flight("a.com"), 2);
  EXPECT_EQ(pacer.try_start("a.com", 1000), HostPacer::kBusyRetryMs);
  EXPECT_EQ(pacer.try_start("a.com", 5000), HostPacer::kBusyRetryMs);
  EXPECT_EQ(pacer.try_start("b.com", 1000), 0);  // another host has its own slots
  pacer.finish("a.com");
  EXPECT_EQ(pacer.in_flight("a.com"), 1);
  EXPECT_EQ(pacer.try_start("a.com", 5000), 0);
  EXPECT_EQ(pacer.in_flight("a.com"), 2);
}

TEST(HostPacerTest, TheDelayBetweenStarts) {
  HostPacer pacer;
  pacer.set_delay("a.com", 2000);
  EXPECT_EQ(pacer.try_start("a.com", 10'000), 0);
  pacer.finish("a.com");
  EXPECT_EQ(pacer.try_start("a.com", 10'000), 2000);
  EXPECT_EQ(pacer.try_start("a.com", 10'500), 1500);
  EXPECT_EQ(pacer.try_start("a.com", 11'999), 1);
  EXPECT_EQ(pacer.in_flight("a.com"), 0);  // a refused start is not counted
  EXPECT_EQ(pacer.try_start("a.com", 12'000), 0);
  EXPECT_EQ(pacer.try_start("a.com", 12'000), 2000);  // counted from the last start
  EXPECT_EQ(pacer.try_start("b.com", 12'000), 0);     // no delay set for b.com
  EXPECT_EQ(pacer.try_start("b.com", 12'000), 0);
}

TEST(HostPacerTest, BusyAndDelayedAnswersTheLongerWait) {
  HostPacer pacer(1);
  pacer.set_delay("a.com", 5000);
  EXPECT_EQ(pacer.try_start("a.com", 0), 0);
  EXPECT_EQ(pacer.try_start("a.com", 1000), 4000);
  EXPECT_EQ(pacer.try_start("a.com", 4995), HostPacer::kBusyRetryMs);
  pacer.finish("a.com");
  EXPECT_EQ(pacer.try_start("a.com", 5000), 0);
}

TEST(HostPacerTest, DelayChangesAndOddInputs) {
  HostPacer pacer(0);  // at least one at a time
  EXPECT_EQ(pacer.try_start("a.com", 100), 0);
  EXPECT_EQ(pacer.try_start("a.com", 100), HostPacer::kBusyRetryMs);
  pacer.finish("a.com");
  pacer.finish("a.com");  // one finish too many changes nothing
  pacer.finish("never.com");
  EXPECT_EQ(pacer.in_flight("a.com"), 0);
  pacer.set_delay("a.com", -5);  // read as 0
  EXPECT_EQ(pacer.try_start("a.com", 100), 0);
  pacer.finish("a.com");
  pacer.set_delay("a.com", 1000);
  EXPECT_EQ(pacer.try_start("a.com", 50), 1000);  // the clock went back: never more than the delay
  EXPECT_EQ(pacer.try_start("a.com", 1100), 0);
}

TEST(UserAgentTest, NamesTheProductAndItsVersion) {
  EXPECT_EQ(kRobotsProductToken, "ParleyBot");
  EXPECT_FALSE(parley_version().empty());
  EXPECT_EQ(crawler_user_agent(), "ParleyBot/" + std::string(parley_version()));
  EXPECT_EQ(crawler_user_agent("https://chat.example.org/crawler"),
            "ParleyBot/" + std::string(parley_version()) + " (+https://chat.example.org/crawler)");
  EXPECT_EQ(crawler_user_agent(""), "ParleyBot/" + std::string(parley_version()));
  EXPECT_NE(std::string(parley_version()).find('.'), std::string::npos);  // "0.1.0"
}

}  // namespace
}  // namespace parley
