#include "core/clock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace parley {
namespace {

class OffsetFileClockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tpl[] = "/tmp/parley_clock_XXXXXX";
    dir_ = mkdtemp(tpl);
    path_ = dir_ + "/offset";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // As the tests write it: a new file renamed over the old one.
  void write_offset(const std::string& text) {
    std::ofstream(path_ + ".new") << text;
    std::filesystem::rename(path_ + ".new", path_);
  }
  std::string dir_;
  std::string path_;
};

// Whole minutes apart, so that the milliseconds passing between two readings cannot blur them.
int64_t minutes_from_system(const Clock& clock) {
  int64_t moved_ms = clock.now_ms() - SystemClock().now_ms();
  return std::llround(static_cast<double>(moved_ms) / 60'000);
}

TEST_F(OffsetFileClockTest, NoFileIsTheSystemClock) {
  OffsetFileClock clock(path_);
  EXPECT_EQ(minutes_from_system(clock), 0);
}

TEST_F(OffsetFileClockTest, AddsTheOffsetAndReadsItAgainWhenTheFileIsReplaced) {
  OffsetFileClock clock(path_);
  EXPECT_EQ(minutes_from_system(clock), 0);
  write_offset("600000\n");
  EXPECT_EQ(minutes_from_system(clock), 10);
  write_offset("-120000");
  EXPECT_EQ(minutes_from_system(clock), -2);
  write_offset("not a number");
  EXPECT_EQ(minutes_from_system(clock), 0);
  std::filesystem::remove(path_);
  EXPECT_EQ(minutes_from_system(clock), 0);
}

TEST(ServeClock, TheTestClockNeedsALoopbackAddress) {
  EXPECT_TRUE(serve_clock("", "0.0.0.0").ok());
  for (const char* host : {"127.0.0.1", "::1", "localhost"}) EXPECT_TRUE(serve_clock("/tmp/x", host).ok()) << host;
  for (const char* host : {"0.0.0.0", "::", "10.0.0.1", "example.com", ""}) {
    auto clock = serve_clock("/tmp/x", host);
    ASSERT_FALSE(clock.ok()) << host;
    EXPECT_EQ(clock.error().message,
              "--test-clock-file is for tests only and needs a loopback --listen address");
  }
}

}  // namespace
}  // namespace parley
