#include <gtest/gtest.h>

#include "http/server.h"

namespace parley {
namespace {

TEST(DefaultMaxConnections, LeavesTheOpenDescriptorsAndAReserve) {
  EXPECT_EQ(default_max_connections(1024, 20), 1024u - 256 - 20);
  EXPECT_EQ(default_max_connections(64, 20), 64u - 16 - 20);              // reserve at least 16
  EXPECT_EQ(default_max_connections(1048576, 20), 1048576u - 1024 - 20);  // at most 1024
  EXPECT_EQ(default_max_connections(32, 20), 1u);                         // never 0
}

}  // namespace
}  // namespace parley
