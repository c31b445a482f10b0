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
    ++reads;
    if (failing) return std::ref<Connection>(broken_);
    return real_.read();
  }
  Result<void> write(WriteFn fn) override { return real_.write(std::move(fn)); }
  void write_async(WriteFn fn) override { real_.write_async(std::move(fn)); }
  std::string_view backend() const override { return real_.backend(); }
  uint64_t auth_epoch() const override { return real_.auth_epoch(); }
  void bump_auth_epoch() override { real_.bump_auth_epoch(); }
  uint64_t data_epoch() const override { return real_.data_epoch(); }
  bool shared_by_nodes() const override { return shared; }

  bool failing = false;
  bool shared = false;  // behaves as a database nodes share (unknown keys are looked up)
  int reads = 0;

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

std::string made_up_key(int i) {
  std::string digits = std::to_string(i);
  return "svc_live_" + std::string(32 - digits.size(), 'q') + digits;
}

void add_key(Database& db, const std::string& id, const std::string& key) {
  ASSERT_TRUE(db.write([&](Connection& c) -> Result<void> {
                  ApiKeyRecord k;
                  k.id = id;
                  k.account_id = "acc_1";
                  k.name = id;
                  k.prefix = key.substr(0, 12);
                  k.fingerprint = sha256_hex(key);
                  k.all_scopes = true;
                  k.created_at = 2;
                  return KeyRepo::insert(c, k);
                }).ok());
  db.bump_auth_epoch();  // what the announcement of a key created on any node does
}

TEST_F(KeyCacheReload, AMadeUpKeyCostsOneQueryThenNoneUntilTheKeysChange) {
  flaky_->shared = true;
  KeyCache cache(*flaky_, clock_);
  ASSERT_TRUE(cache.find(kKey).ok());
  const std::string made_up = made_up_key(1);
  EXPECT_EQ(cache.find_without_waiting(made_up), std::nullopt);  // must be looked up first
  int before = flaky_->reads;
  auto first = cache.find(made_up);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, nullptr);
  EXPECT_EQ(flaky_->reads, before + 1);
  for (int i = 0; i < 100; ++i) {
    auto again = cache.find(made_up);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, nullptr);
  }
  auto from_memory = cache.find_without_waiting(made_up);
  ASSERT_TRUE(from_memory.has_value());
  EXPECT_EQ(*from_memory, nullptr);
  EXPECT_EQ(flaky_->reads, before + 1);
  // After the window it is looked up again.
  clock_.advance_ms(KeyCache::kUnknownKeyTtlMs);
  ASSERT_TRUE(cache.find(made_up).ok());
  EXPECT_EQ(flaky_->reads, before + 2);
}

TEST_F(KeyCacheReload, AKeyCreatedAfterItWasFoundUnknownWorksAtOnce) {
  flaky_->shared = true;
  KeyCache cache(*flaky_, clock_);
  const std::string key = made_up_key(2);
  ASSERT_EQ(*cache.find(key), nullptr);
  add_key(*real_, "key_2", key);
  EXPECT_EQ(cache.find_without_waiting(key), std::nullopt);  // the keys changed: reload first
  auto found = cache.find(key);
  ASSERT_TRUE(found.ok());
  ASSERT_NE(*found, nullptr);
  EXPECT_EQ((*found)->key_id, "key_2");
  EXPECT_EQ(cache.unknown_keys(), 0u);
}

TEST_F(KeyCacheReload, TheUnknownKeysRememberedAreBounded) {
  flaky_->shared = true;
  KeyCache cache(*flaky_, clock_);
  for (size_t i = 0; i < KeyCache::kUnknownKeysMax + 50; ++i)
    ASSERT_TRUE(cache.find(made_up_key(static_cast<int>(i))).ok());
  EXPECT_EQ(cache.unknown_keys(), KeyCache::kUnknownKeysMax);
  // The oldest were dropped first.
  EXPECT_EQ(cache.find_without_waiting(made_up_key(0)), std::nullopt);
  EXPECT_TRUE(
      cache.find_without_waiting(made_up_key(static_cast<int>(KeyCache::kUnknownKeysMax + 49)))
          .has_value());
}

TEST_F(KeyCacheReload, OnADatabaseOneNodeServesAnUnknownKeyIsAnsweredFromMemory) {
  KeyCache cache(*flaky_, clock_);
  ASSERT_TRUE(cache.find(kKey).ok());
  auto r = cache.find_without_waiting(made_up_key(3));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, nullptr);
}

}  // namespace
}  // namespace parley
