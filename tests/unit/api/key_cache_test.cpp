// The key cache after a failed reload: once the keys have changed (the auth epoch moved), a cache
// that cannot reload must not keep accepting the keys it holds, any of which may be revoked.
// Reads are made to fail on demand by a Database wrapper around a real SQLite database.
#include "api/key_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "core/crypto.h"
#include "store/account_repo.h"
#include "store/key_repo.h"

namespace parley {
namespace {

constexpr std::string_view kKey = "svc_live_abcdefghijklmnopqrstuvwxyz012345";

// Forwards to a real database, except that reads fail while `failing` is set.
class FlakyReads final : public Database {
 public:
  explicit FlakyReads(Database& real) : real_(real) {}
  Result<std::reference_wrapper<Connection>> read() override {
    if (failing) return std::ref<Connection>(broken_);
    return real_.read();
  }
  Result<void> write(WriteFn fn) override { return real_.write(std::move(fn)); }
  void write_async(WriteFn fn) override { real_.write_async(std::move(fn)); }
  std::string_view backend() const override { return real_.backend(); }
  uint64_t auth_epoch() const override { return real_.auth_epoch(); }
  void bump_auth_epoch() override { real_.bump_auth_epoch(); }
  uint64_t data_epoch() const override { return real_.data_epoch(); }

  bool failing = false;

 private:
  class Broken final : public Connection {
   public:
    Result<void> query(std::string_view, Params, const RowFn&) override { return fail(); }
    Result<void> query(std::string_view, const std::vector<DbValue>&, const RowFn&) override {
      return fail();
    }
    Result<int64_t> execute(std::string_view, Params) override { return fail(); }
    Result<void> execute_script(std::string_view) override { return fail(); }
    Result<bool> lock_row(std::string_view, std::string_view) override { return fail(); }

   private:
    static ApiError fail() { return ApiError::internal("injected read failure"); }
  };

  Database& real_;
  Broken broken_;
};

class KeyCacheReload : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_key_cache_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    ASSERT_TRUE(db.ok());
    real_ = std::move(*db);
    ASSERT_TRUE(real_->write([](Connection& c) -> Result<void> {
                  PARLEY_TRY(AccountRepo::insert(c, Account{"acc_1", "One", Plan::kPro, "", 1, 1}));
                  ApiKeyRecord k;
                  k.id = "key_1";
                  k.account_id = "acc_1";
                  k.name = "test";
                  k.prefix = std::string(kKey.substr(0, 12));
                  k.fingerprint = sha256_hex(kKey);
                  k.all_scopes = true;
                  k.created_at = 1;
                  return KeyRepo::insert(c, k);
                }).ok());
    real_->bump_auth_epoch();
    flaky_ = std::make_unique<FlakyReads>(*real_);
  }
  void TearDown() override {
    flaky_.reset();
    real_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::string dir_;
  std::unique_ptr<Database> real_;
  std::unique_ptr<FlakyReads> flaky_;
  ManualClock clock_{1'700'000'000'000};
};

TEST_F(KeyCacheReload, ARevokedKeyIsRefusedWhenTheReloadFails) {
  KeyCache cache(*flaky_, clock_);
  auto before = cache.find(kKey);
  ASSERT_TRUE(before.ok());
  ASSERT_NE(*before, nullptr);
  EXPECT_EQ((*before)->key_id, "key_1");

  ASSERT_TRUE(real_->write([](Connection& c) -> Result<void> {
                return KeyRepo::revoke(c, "key_1", 2).ok() ? Result<void>() : ApiError::internal("revoke");
              }).ok());
  real_->bump_auth_epoch();
  flaky_->failing = true;
  auto during = cache.find(kKey);
  ASSERT_FALSE(during.ok());
  EXPECT_EQ(during.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(during.error().message, "API keys cannot be checked right now; retry.");

  flaky_->failing = false;  // the next request retries the reload, which now succeeds
  auto after = cache.find(kKey);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(*after, nullptr);
}

TEST_F(KeyCacheReload, FailingReadsDoNotMatterWhileTheKeysAreUnchanged) {
  KeyCache cache(*flaky_, clock_);
  ASSERT_TRUE(cache.find(kKey).ok());
  flaky_->failing = true;
  auto again = cache.find(kKey);
  ASSERT_TRUE(again.ok());
  ASSERT_NE(*again, nullptr);
}

TEST_F(KeyCacheReload, AFirstLoadThatFailsAcceptsNoKey) {
  KeyCache cache(*flaky_, clock_);
  flaky_->failing = true;
  auto r = cache.find(kKey);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace parley
