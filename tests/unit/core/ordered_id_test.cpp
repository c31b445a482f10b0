// Identifiers that begin with the time they were made (core/random.h new_ordered_id): the same
// shape as new_id's (a prefix and 22 base62 characters), ordered by time byte by byte, distinct
// within one millisecond.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/random.h"

namespace parley {
namespace {

bool base62(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char ch) {
    return (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
  });
}

TEST(OrderedId, HasTheShapeOfAnIdentifier) {
  SecureRandom random;
  std::string id = new_ordered_id(random, "msg_");
  ASSERT_EQ(id.size(), 4u + 22u);
  EXPECT_EQ(id.substr(0, 4), "msg_");
  EXPECT_TRUE(base62(id.substr(4))) << id;
  EXPECT_EQ(ordered_base62(random).size(), 22u);
}

TEST(OrderedId, LaterOnesSortAfterEarlierOnesAndNoneRepeats) {
  SecureRandom random;
  std::vector<std::string> made;
  std::set<std::string> seen;
  for (int round = 0; round < 3; ++round) {
    std::string first = new_ordered_id(random, "cnv_");
    for (int i = 0; i < 500; ++i) {
      std::string id = new_ordered_id(random, "cnv_");
      EXPECT_TRUE(seen.insert(id).second) << id;
      // The same millisecond shares the 8-character time part; a later one is never smaller.
      EXPECT_LE(first.substr(0, 12), id.substr(0, 12));
    }
    made.push_back(first);
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  EXPECT_LT(made[0], made[1]);
  EXPECT_LT(made[1], made[2]);
}

TEST(OrderedId, TheTimePartIsTheUnixTimeInMilliseconds) {
  SecureRandom random;
  auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  std::string s = ordered_base62(random);
  auto after = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
  const std::string alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  int64_t ms = 0;
  for (char ch : s.substr(0, 8)) ms = ms * 62 + static_cast<int64_t>(alphabet.find(ch));
  EXPECT_GE(ms, before);
  EXPECT_LE(ms, after);
}

}  // namespace
}  // namespace parley
