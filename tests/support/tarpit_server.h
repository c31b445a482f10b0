// A tarpit receiver for end-to-end tests: a real TCP server on a loopback port that accepts every
// connection and never answers (not even the TLS handshake), the way a malicious or broken
// webhook endpoint holds a sender until its timeout. Counts the connections it accepted; closes
// them all when destroyed, so that a server's attempts in flight end at once. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace parley::e2e {

class TarpitServer {
 public:
  TarpitServer();
  ~TarpitServer();
  TarpitServer(const TarpitServer&) = delete;
  TarpitServer& operator=(const TarpitServer&) = delete;

  uint16_t port() const { return port_; }
  size_t accepted() const;
  // Waits (up to `timeout_ms`) until at least `n` connections were accepted.
  bool wait_accepted(size_t n, int timeout_ms) const;

 private:
  void accept_loop();

  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  mutable std::mutex mu_;
  std::vector<int> connections_;
};

}  // namespace parley::e2e
