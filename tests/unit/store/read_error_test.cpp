// Database::read() reports a connection it cannot open as an error (no exception): here a thread
// that reads for the first time after the database's directory was removed. ping() says so too.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <thread>

#include "store/db.h"

namespace parley {
namespace {

TEST(DatabaseRead, AConnectionThatCannotBeOpenedIsAnError) {
  char dir_template[] = "/tmp/parley_read_error_XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  auto db = open_database({"sqlite:" + dir + "/parley.db", Durability::kNormal});
  ASSERT_TRUE(db.ok());
  EXPECT_TRUE((*db)->ping().ok());
  std::filesystem::remove_all(dir);
  bool read_ok = true, ping_ok = true;
  std::thread fresh([&] {  // a thread without a reading connection yet
    read_ok = (*db)->read().ok();
    ping_ok = (*db)->ping().ok();
  });
  fresh.join();
  EXPECT_FALSE(read_ok);
  EXPECT_FALSE(ping_ok);
}

}  // namespace
}  // namespace parley
