#include "tarpit_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include "loopback_listener.h"

namespace parley::e2e {

TarpitServer::TarpitServer() {
  auto listener = listen_on_loopback(128);
  listen_fd_ = listener.fd;
  port_ = listener.port;
  acceptor_ = std::thread([this] { accept_loop(); });
}

TarpitServer::~TarpitServer() {
  stopping_ = true;
  acceptor_.join();
  ::close(listen_fd_);
  std::lock_guard lock(mu_);
  for (int fd : connections_) ::close(fd);
}

void TarpitServer::accept_loop() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) continue;
    std::lock_guard lock(mu_);
    connections_.push_back(fd);  // held open, never read, never answered
  }
}

size_t TarpitServer::accepted() const {
  std::lock_guard lock(mu_);
  return connections_.size();
}

bool TarpitServer::wait_accepted(size_t n, int timeout_ms) const {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (accepted() < n) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace parley::e2e
