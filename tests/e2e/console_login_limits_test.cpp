// Console sign-in limits (per email and address, behind a trusted proxy, IPv6 grouped) and the
// operator's switch for owners' plan changes, each on a server of its own so counts start at zero.
#include "harness.h"

namespace parley::e2e {
namespace {

const char* kPassword = "correct horse 42";

// Login limits, on servers of their own so that the counts start at zero.
Env login_limits() {
  Env env = unlimited();
  env["PARLEY_CONSOLE_LOGIN_FAILURES_PER_EMAIL"] = "3";
  env["PARLEY_CONSOLE_LOGIN_FAILURES_PER_ADDRESS"] = "5";
  return env;
}

HttpResponse login(const Server& s, const std::string& email, const std::string& password) {
  return s.request({"POST", "/console/v1/login", Json{{"email", email}, {"password", password}}.dump(), {}});
}

TEST(ConsoleLoginLimits, FailuresPerEmailBlockThatEmailEvenWithTheRightPassword) {
  Server server(login_limits());
  std::string account = server.create_account();
  auto m = create_member(server, account, "owner", kPassword);
  auto other = create_member(server, account, "viewer", kPassword);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(login(server, m["email"], "wrong password").status, 401);
  auto blocked = login(server, m["email"], kPassword);
  EXPECT_EQ(blocked.status, 429);
  EXPECT_EQ(blocked.error_code(), "rate_limited");
  int retry = std::stoi(blocked.header("retry-after"));
  EXPECT_GT(retry, 0);
  EXPECT_LE(retry, 900);
  // Another email from the same address is still allowed (4 of 5 address failures used).
  EXPECT_EQ(login(server, other["email"], kPassword).status, 200);
}

TEST(ConsoleLoginLimits, FailuresPerAddressBlockEveryEmailFromIt) {
  Server server(login_limits());
  std::string account = server.create_account();
  auto m = create_member(server, account, "owner", kPassword);
  EXPECT_EQ(login(server, m["email"], kPassword).status, 200);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(login(server, "guess" + std::to_string(i) + "@example.com", "wrong password").status, 401);
  }
  auto blocked = login(server, m["email"], kPassword);
  EXPECT_EQ(blocked.status, 429);
  EXPECT_EQ(blocked.error_code(), "rate_limited");
  EXPECT_TRUE(blocked.has_header("retry-after"));
}

TEST(ConsolePlans, AnOperatorCanTurnOffSelfServicePlanChanges) {
  Env env = unlimited();
  env["PARLEY_NO_SELF_SERVICE_PLANS"] = "true";
  Server server(env);
  std::string account = server.create_account("starter");
  std::string owner = create_member(server, account, "owner", kPassword)["token"];
  auto r = send(server, "PUT", "/console/v1/account", owner, R"({"plan":"enterprise"})");
  EXPECT_EQ(r.status, 403) << r.body;
  EXPECT_EQ(r.error_code(), "forbidden");
  EXPECT_NE(r.error_message().find("operator"), std::string::npos);
  EXPECT_EQ(server.get("/console/v1/account", owner).json()["data"]["plan"], "starter");
  // The operator still can.
  server.admin({"account", "set-plan", account, "pro"});
  EXPECT_EQ(server.get("/console/v1/account", owner).json()["data"]["plan"], "pro");
}

HttpResponse login_from(const Server& s, const std::string& client, const std::string& email,
                        const std::string& password) {
  return s.request({"POST",
                    "/console/v1/login",
                    Json{{"email", email}, {"password", password}}.dump(),
                    {"X-Forwarded-For: " + client}});
}

// Behind the TLS proxy the README recommends, every login arrives from the proxy's address: 51
// failures with made-up emails once locked every account's owner out for 15 minutes.
TEST(ConsoleLoginLimits, BehindAProxyOneClientsFailuresDoNotLockAnotherClientOut) {
  Env env = unlimited();
  env["PARLEY_CLIENT_ADDRESS_HEADER"] =
      "X-Forwarded-For";  // loopback is a trusted proxy by default
  Server server(env);
  std::string account = server.create_account();
  auto m = create_member(server, account, "owner", kPassword);
  for (int i = 0; i < 50; ++i) {
    auto r =
        login_from(server, "203.0.113.7", "made-up" + std::to_string(i) + "@example.com", "wrong");
    ASSERT_EQ(r.status, 401) << i;
  }
  auto stranger = login_from(server, "203.0.113.7", "made-up50@example.com", "wrong");
  EXPECT_EQ(stranger.status, 429);
  EXPECT_EQ(stranger.error_code(), "rate_limited");
  auto owner = login_from(server, "198.51.100.2", m["email"], kPassword);
  EXPECT_EQ(owner.status, 200) << owner.body;
}

TEST(ConsoleLoginLimits, GuessingOneAccountIsStoppedWhileItsOwnerSignsInFromElsewhere) {
  Env env = login_limits();
  env["PARLEY_CLIENT_ADDRESS_HEADER"] = "X-Forwarded-For";
  Server server(env);
  std::string account = server.create_account();
  auto m = create_member(server, account, "owner", kPassword);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(login_from(server, "203.0.113.7", m["email"], "guess").status, 401);
  auto blocked = login_from(server, "203.0.113.7", m["email"], kPassword);
  EXPECT_EQ(blocked.status, 429);
  EXPECT_EQ(blocked.error_code(), "rate_limited");
  // Another address of the same IPv6 /64 is the same client.
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(
        login_from(server, "2001:db8:1:2::" + std::to_string(i + 1), m["email"], "guess").status,
        401);
  EXPECT_EQ(login_from(server, "2001:db8:1:2::ffff", m["email"], kPassword).status, 429);
  EXPECT_EQ(login_from(server, "198.51.100.2", m["email"], kPassword).status, 200);
}

// Guessing spread over many addresses reaches the email's ceiling: new places are refused, the
// right password included, but not an address the member signed in from (on PostgreSQL, counted
// in the shared database).
TEST(ConsoleLoginLimits, AGuesserOnManyAddressesDoesNotLockTheMemberOutOfTheirOwn) {
  Env env = login_limits();
  env["PARLEY_CLIENT_ADDRESS_HEADER"] = "X-Forwarded-For";
  env["PARLEY_CONSOLE_LOGIN_FAILURES_PER_EMAIL_ALL_ADDRESSES"] = "6";
  Server server(env);
  std::string account = server.create_account();
  auto m = create_member(server, account, "owner", kPassword);
  ASSERT_EQ(login_from(server, "198.51.100.2", m["email"], kPassword).status, 200);
  for (int a = 1; a <= 3; ++a) {
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(login_from(server, "203.0.113." + std::to_string(a), m["email"], "guess").status,
                401);
    }
  }
  auto elsewhere = login_from(server, "203.0.113.50", m["email"], kPassword);
  EXPECT_EQ(elsewhere.status, 429);
  EXPECT_EQ(elsewhere.error_code(), "rate_limited");
  EXPECT_EQ(login_from(server, "198.51.100.9", m["email"], kPassword).status, 429);
  auto own = login_from(server, "198.51.100.2", m["email"], kPassword);
  EXPECT_EQ(own.status, 200) << own.body;
  // Its own pair allowance still holds there.
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(login_from(server, "198.51.100.2", m["email"], "typo").status, 401);
  EXPECT_EQ(login_from(server, "198.51.100.2", m["email"], kPassword).status, 429);
}

TEST(ConsoleLoginLimits, AHeaderFromAnUntrustedPeerIsIgnored) {
  Env env = login_limits();
  env["PARLEY_CLIENT_ADDRESS_HEADER"] = "X-Forwarded-For";
  env["PARLEY_TRUSTED_PROXIES"] = "192.0.2.0/24";  // not the test's loopback peer
  Server server(env);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(login_from(server, "203.0.113." + std::to_string(i),
                         "g" + std::to_string(i) + "@example.com", "x")
                  .status,
              401);
  }
  EXPECT_EQ(login_from(server, "203.0.113.99", "g99@example.com", "x").status, 429);
}

}  // namespace
}  // namespace parley::e2e
