// A transfer paused for a slow reader must not hold the other transfers multiplexed with it on
// one HTTP/2 connection, and a reader that stays behind must not make the caller buffer without
// bound (net/outbound.h Transfer::pause). The provider is nginx over TLS with HTTP/2, as in
// bench/scenarios/live_replies.sh; skipped where nginx or openssl is missing.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>

#include "net/outbound.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

// A port the kernel picks for a loopback socket, free once the socket is closed.
int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

// What a transfer's callbacks touch, kept alive by them: a test that stops early leaves nothing
// they could write to after it.
struct Reading {
  std::atomic<size_t> bytes{0};
  std::shared_ptr<Transfer> transfer;
  std::promise<void> held;
  bool held_once = false;
  std::promise<SendOutcome> done;
};

class Http2Provider : public ::testing::Test {
 protected:
  static constexpr size_t kBodyBytes = 1 << 20;
  static constexpr size_t kLongBodyBytes = 8 << 20;

  void SetUp() override {
    if (!fs::exists("/usr/sbin/nginx") || std::system("command -v openssl >/dev/null") != 0)
      GTEST_SKIP() << "nginx or openssl is missing (scripts/install-deps.sh)";
    dir_ = fs::temp_directory_path() / ("parley-h2-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "www");
    std::string cert =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
        "-addext subjectAltName=IP:127.0.0.1 -keyout " +
        (dir_ / "key.pem").string() + " -out " + (dir_ / "cert.pem").string() + " 2>/dev/null";
    ASSERT_EQ(std::system(cert.c_str()), 0);
    // Bodies of many HTTP/2 DATA frames, each larger than a stream's 4 KB read buffer.
    std::ofstream(dir_ / "www" / "body") << std::string(kBodyBytes, 'x');
    std::ofstream(dir_ / "www" / "long") << std::string(kLongBodyBytes, 'y');
    // Another process may take the port picked before nginx binds it: a few tries.
    for (int attempt = 0; attempt < 3 && !started_; ++attempt) {
      port_ = free_port();
      ASSERT_NE(port_, 0);
      std::ostringstream conf;
      const std::string d = dir_.string();
      if (geteuid() == 0) conf << "user root;\n";  // the workers read the test's files
      conf << "worker_processes 1;\npid " << d << "/nginx.pid;\nerror_log " << d
           << "/error.log warn;\nevents { worker_connections 64; }\nhttp {\n"
           << "  log_format h2 '$connection $server_protocol $request_uri';\n"
           << "  access_log " << d << "/access.log h2;\n";
      for (const char* temp : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"})
        conf << "  " << temp << "_temp_path " << d << "/" << temp << ";\n";
      conf << "  server {\n    listen 127.0.0.1:" << port_ << " ssl http2;\n"
           << "    ssl_certificate " << d << "/cert.pem;\n    ssl_certificate_key " << d
           << "/key.pem;\n    root " << d << "/www;\n  }\n}\n";
      std::ofstream(dir_ / "nginx.conf") << conf.str();
      std::string start =
          "/usr/sbin/nginx -c " + d + "/nginx.conf -p " + d + " -e " + d + "/error.log 2>/dev/null";
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

  // GET `path`; `hold` decides, after each piece handed over, whether to pause the transfer.
  void start(const std::string& path, const std::shared_ptr<Reading>& r,
             std::function<bool(const Reading&)> hold) {
    TransferCall c;
    c.request.url = "https://127.0.0.1:" + std::to_string(port_) + path;
    c.request.method = "GET";
    c.request.timeout_ms = 30000;
    c.request.connect_timeout_ms = 5000;
    c.request.share_connections = true;
    c.request.on_body = [r, hold](std::string_view piece) {
      r->bytes += piece.size();
      if (hold(*r)) {
        r->transfer = this_transfer();
        r->transfer->pause();
        if (!r->held_once) {
          r->held_once = true;
          r->held.set_value();
        }
      }
      return true;
    };
    c.ca_file = (dir_ / "cert.pem").string();
    c.done = [r](SendOutcome o) { r->done.set_value(std::move(o)); };
    start_transfer(std::move(c));
  }
  // The access log's lines: "<connection> <protocol> <uri>", once nginx has written them.
  std::vector<std::string> logged(size_t lines) {
    std::vector<std::string> out;
    for (int i = 0; i < 100 && out.size() < lines; ++i) {
      out.clear();
      std::ifstream in(dir_ / "access.log");
      for (std::string line; std::getline(in, line);) out.push_back(line);
      if (out.size() < lines) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return out;
  }

  fs::path dir_;
  int port_ = 0;
  bool started_ = false;
};

TEST_F(Http2Provider, ATransferPausedForItsReaderHoldsNoOtherTransferOfItsConnection) {
  // The slow reader's transfer: paused at its first piece, until the other one is done.
  auto slow = std::make_shared<Reading>();
  start("/body", slow, [](const Reading& r) { return !r.held_once; });
  ASSERT_EQ(slow->held.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  // The other transfer, multiplexed on the same connection, reads its whole body meanwhile.
  auto other = std::make_shared<Reading>();
  const auto begun = std::chrono::steady_clock::now();
  start("/body", other, [](const Reading&) { return false; });
  auto other_done = other->done.get_future();
  const bool other_finished =
      other_done.wait_for(std::chrono::seconds(8)) == std::future_status::ready;
  const auto took = std::chrono::steady_clock::now() - begun;
  // The slow one goes on once resumed and gets all of its body; whatever happened above, the
  // other is then let through too.
  slow->transfer->resume();
  auto slow_done = slow->done.get_future();
  ASSERT_EQ(slow_done.wait_for(std::chrono::seconds(15)), std::future_status::ready);
  EXPECT_EQ(slow_done.get().status.value_or(0), 200);
  EXPECT_EQ(slow->bytes.load(), kBodyBytes);
  ASSERT_EQ(other_done.wait_for(std::chrono::seconds(15)), std::future_status::ready);
  EXPECT_TRUE(other_finished) << "the other transfer waited for the paused one";
  EXPECT_LT(took, std::chrono::seconds(8));
  SendOutcome o = other_done.get();
  EXPECT_EQ(o.status.value_or(0), 200) << o.error.value_or("");
  EXPECT_EQ(other->bytes.load(), kBodyBytes);
  // Both over HTTP/2, on one connection: what the test is about.
  auto lines = logged(2);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find(" HTTP/2.0 /body"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].substr(0, lines[0].find(' ')), lines[1].substr(0, lines[1].find(' ')))
      << lines[0] << " / " << lines[1];
}

TEST_F(Http2Provider, AReaderThatStaysBehindOnAMultiplexedConnectionEndsItsTransfer) {
  // Held after every piece and never resumed: the transfer ends once it has handed over
  // Transfer::kMostUnpaused bytes, not the whole 8 MB.
  auto behind = std::make_shared<Reading>();
  start("/long", behind, [](const Reading&) { return true; });
  auto done = behind->done.get_future();
  ASSERT_EQ(done.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  SendOutcome o = done.get();
  EXPECT_EQ(o.failure, SendFailure::kStopped) << o.error.value_or("");
  EXPECT_GT(behind->bytes.load(), Transfer::kMostUnpaused / 2);
  EXPECT_LE(behind->bytes.load(), Transfer::kMostUnpaused + 64 * 1024);
  // (Over HTTP/1.1 the transfer would have been paused for good, and `done` never come.)
}

}  // namespace
}  // namespace parley
