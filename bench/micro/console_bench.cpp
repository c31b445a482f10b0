// Console micro benchmarks: the cost of an Argon2id password check (login), of a token
// fingerprint (every console request) and of a login-throttle decision.
#include <benchmark/benchmark.h>

#include "console/login_throttle.h"
#include "core/crypto.h"
#include "core/random.h"
#include "domain/member_passwords.h"

namespace parley {
namespace {

void BM_Argon2idVerify(benchmark::State& state) {
  SecureRandom random;
  std::string hash = *hash_password(random, "correct horse battery");
  for (auto _ : state) benchmark::DoNotOptimize(verify_password(hash, "correct horse battery"));
}
BENCHMARK(BM_Argon2idVerify)->Unit(benchmark::kMillisecond);

void BM_TokenFingerprint(benchmark::State& state) {
  std::string token = "cst_" + std::string(40, 'a');
  for (auto _ : state) benchmark::DoNotOptimize(sha256_hex(token));
}
BENCHMARK(BM_TokenFingerprint);

void BM_LoginThrottleBegin(benchmark::State& state) {
  ManualClock clock(1'700'000'000'000);
  LoginThrottle throttle(clock, LoginLimits{1'000'000'000, 1'000'000'000, 900'000});
  for (auto _ : state) benchmark::DoNotOptimize(throttle.begin("someone@example.com", "203.0.113.9"));
}
BENCHMARK(BM_LoginThrottleBegin);

}  // namespace
}  // namespace parley
