// A transfer paused for a slow reader must not hold the other transfers multiplexed with it on
// one HTTP/2 connection (net/outbound.h Transfer::pause). The provider is nginx over TLS with
// HTTP/2, as in bench/scenarios/live_replies.sh; skipped where nginx or openssl is missing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>

#include <unistd.h>

#include "net/outbound.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

int free_port() {
  // The kernel's pick for a socket bound to port 0, read back through Python as the benches do.
  FILE* p = popen(
      "python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\",0)); "
      "print(s.getsockname()[1]); s.close()'",
      "r");
  if (p == nullptr) return 0;
  int port = 0;
  if (fscanf(p, "%d", &port) != 1) port = 0;
  pclose(p);
  return port;
}

class Http2Provider : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists("/usr/sbin/nginx") || std::system("command -v openssl >/dev/null") != 0)
      GTEST_SKIP() << "nginx or openssl is missing (scripts/install-deps.sh)";
    dir_ = fs::temp_directory_path() / ("parley-h2-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "www");
    std::string cmd =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
        "-addext subjectAltName=IP:127.0.0.1 -keyout " +
        (dir_ / "key.pem").string() + " -out " + (dir_ / "cert.pem").string() + " 2>/dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    // A body of many HTTP/2 DATA frames, each larger than a stream's 4 KB read buffer.
    std::ofstream(dir_ / "www" / "big") << std::string(kBigBytes, 'x');
    // Another process may take the port picked before nginx binds it: a few tries.
    for (int attempt = 0; attempt < 3 && !started_; ++attempt) {
      port_ = free_port();
      ASSERT_NE(port_, 0);
      std::ofstream(dir_ / "nginx.conf")
          << "worker_processes 1;\npid " << (dir_ / "nginx.pid").string() << ";\nerror_log "
          << (dir_ / "error.log").string()
          << " warn;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n"
          << "  client_body_temp_path " << (dir_ / "body").string() << ";\n  server {\n"
          << "    listen 127.0.0.1:" << port_ << " ssl http2;\n    ssl_certificate "
          << (dir_ / "cert.pem").string() << ";\n    ssl_certificate_key "
          << (dir_ / "key.pem").string() << ";\n    root " << (dir_ / "www").string()
          << ";\n  }\n}\n";
      std::string start = "/usr/sbin/nginx -c " + (dir_ / "nginx.conf").string() + " -p " +
                          dir_.string() + " -e " + (dir_ / "error.log").string();
      started_ = std::system(start.c_str()) == 0;
    }
    ASSERT_TRUE(started_) << "nginx did not start";
  }
  void TearDown() override {
    if (started_) {
      std::string stop = "kill $(cat " + (dir_ / "nginx.pid").string() + ") 2>/dev/null";
      (void)std::system(stop.c_str());
      // nginx removes its pid file as it exits.
      for (int i = 0; i < 100 && fs::exists(dir_ / "nginx.pid"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }

  TransferCall call(std::function<bool(std::string_view)> on_body,
                    std::function<void(SendOutcome)> done) {
    TransferCall c;
    c.request.url = "https://127.0.0.1:" + std::to_string(port_) + "/big";
    c.request.method = "GET";
    c.request.timeout_ms = 20000;
    c.request.connect_timeout_ms = 5000;
    c.request.share_connections = true;
    c.request.on_body = std::move(on_body);
    c.ca_file = (dir_ / "cert.pem").string();
    c.done = std::move(done);
    return c;
  }

  static constexpr size_t kBigBytes = 1 << 20;
  fs::path dir_;
  int port_ = 0;
  bool started_ = false;
};

TEST_F(Http2Provider, ATransferPausedForItsReaderHoldsNoOtherTransferOfItsConnection) {
  // The slow reader's transfer: paused at its first piece, until the other one is done.
  std::shared_ptr<Transfer> slow;
  std::atomic<size_t> slow_bytes{0};
  std::promise<void> slow_paused;
  std::promise<SendOutcome> slow_done;
  bool paused_once = false;
  start_transfer(call(
      [&](std::string_view piece) {
        slow_bytes += piece.size();
        if (!paused_once) {
          paused_once = true;
          slow = this_transfer();
          slow->pause();
          slow_paused.set_value();
        }
        return true;
      },
      [&](SendOutcome o) { slow_done.set_value(std::move(o)); }));
  ASSERT_EQ(slow_paused.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  // The other transfer, multiplexed on the same connection, reads its whole body meanwhile.
  std::atomic<size_t> other_bytes{0};
  std::promise<SendOutcome> other_done;
  const auto begun = std::chrono::steady_clock::now();
  start_transfer(call(
      [&](std::string_view piece) {
        other_bytes += piece.size();
        return true;
      },
      [&](SendOutcome o) { other_done.set_value(std::move(o)); }));
  auto other = other_done.get_future();
  const bool other_finished = other.wait_for(std::chrono::seconds(8)) == std::future_status::ready;
  const auto took = std::chrono::steady_clock::now() - begun;
  // The slow one goes on once resumed, and gets all of its body (the other is then let through
  // too, whatever happened above, so that nothing outlives the test).
  slow->resume();
  auto slow_outcome = slow_done.get_future();
  ASSERT_EQ(slow_outcome.wait_for(std::chrono::seconds(15)), std::future_status::ready);
  EXPECT_EQ(slow_outcome.get().status.value_or(0), 200);
  EXPECT_EQ(slow_bytes.load(), kBigBytes);
  ASSERT_EQ(other.wait_for(std::chrono::seconds(15)), std::future_status::ready);
  EXPECT_TRUE(other_finished) << "the other transfer waited for the paused one";
  EXPECT_LT(took, std::chrono::seconds(8));
  SendOutcome o = other.get();
  EXPECT_EQ(o.status.value_or(0), 200) << o.error.value_or("");
  EXPECT_EQ(other_bytes.load(), kBigBytes);
}

}  // namespace
}  // namespace parley
