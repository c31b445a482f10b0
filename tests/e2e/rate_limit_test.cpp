// Spec section 8: 60 requests per key per minute across all endpoints, the X-RateLimit-* headers
// on every response that passed the key check, and 429 rate_limited with Retry-After.
#include "harness.h"

namespace parley::e2e {
namespace {

TEST(RateLimit, SixtyFirstRequestOfAMinuteIsRateLimited) {
  TestClock clock;
  Server server({}, clock.args());  // the default limit: 60 a minute
  auto account = server.create_account();
  auto key = server.create_key(account);
  clock.advance_to_next_minute();
  int64_t reset = 0;
  for (int i = 1; i <= 60; ++i) {
    auto r = server.get(i % 2 ? "/api/v1/agents" : "/api/v1/agents/agt_missing", key);
    ASSERT_NE(r.status, 429) << "request " << i;
    EXPECT_EQ(r.header("x-ratelimit-limit"), "60");
    EXPECT_EQ(r.header("x-ratelimit-remaining"), std::to_string(60 - i));
    if (reset == 0) reset = std::stoll(r.header("x-ratelimit-reset"));
    EXPECT_EQ(std::stoll(r.header("x-ratelimit-reset")), reset);
  }
  int64_t now_s = clock.now_ms() / 1000;  // the server's time
  EXPECT_EQ(reset % 60, 0);
  EXPECT_GT(reset, now_s);
  EXPECT_LE(reset, now_s + 60);

  auto limited = server.get("/api/v1/agents", key);
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.error_code(), "rate_limited");
  EXPECT_EQ(limited.header("x-ratelimit-remaining"), "0");
  EXPECT_EQ(limited.header("x-ratelimit-limit"), "60");
  int retry_after = std::stoi(limited.header("retry-after"));
  EXPECT_GE(retry_after, 1);
  EXPECT_LE(retry_after, 60);

  // Another key of the same account has its own minute.
  auto other = server.create_key(account);
  EXPECT_EQ(server.get("/api/v1/agents", other).status, 200);
  // An unauthenticated request is not counted and carries no rate-limit headers.
  auto anon = server.request({"GET", "/api/v1/agents", "", {}});
  EXPECT_EQ(anon.status, 401);
  EXPECT_FALSE(anon.has_header("x-ratelimit-limit"));
}

TEST(RateLimit, LimitIsASetting) {
  TestClock clock;
  Server server(Env{{"PARLEY_RATE_LIMIT_PER_MINUTE", "3"}}, clock.args());
  auto account = server.create_account();
  auto key = server.create_key(account);
  clock.advance_to_next_minute();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(server.get("/api/v1/agents", key).status, 200);
  auto r = server.get("/api/v1/agents", key);
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.header("x-ratelimit-limit"), "3");
}

TEST(RateLimit, WindowSurvivesARestart) {
  TestClock clock;
  Server server(Env{{"PARLEY_RATE_LIMIT_PER_MINUTE", "5"}}, clock.args());
  auto account = server.create_account();
  auto key = server.create_key(account);
  clock.advance_to_next_minute();
  for (int i = 0; i < 5; ++i) ASSERT_EQ(server.get("/api/v1/agents", key).status, 200);
  server.restart();  // SIGTERM flushes the windows
  auto r = server.get("/api/v1/agents", key);
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.error_code(), "rate_limited");
}

}  // namespace
}  // namespace parley::e2e
