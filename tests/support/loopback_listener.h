// A listening TCP socket on 127.0.0.1 and a free port, for the test's stand-ins of services
// outside the machine (LLM provider, SMTP server, webhook tarpit). Throws when it cannot listen.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace parley::e2e {

struct LoopbackListener {
  int fd = -1;
  uint16_t port = 0;
};

inline LoopbackListener listen_on_loopback(int backlog) {
  LoopbackListener l;
  l.fd = ::socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  ::setsockopt(l.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (l.fd < 0 || ::bind(l.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(l.fd, backlog) != 0 ||
      ::getsockname(l.fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (l.fd >= 0) ::close(l.fd);
    throw std::runtime_error("cannot listen on a loopback port");
  }
  l.port = ntohs(addr.sin_port);
  return l;
}

// A client socket connected to 127.0.0.1:`port`, whose reads give up after `read_timeout_s`
// seconds with nothing new; -1 when it cannot connect.
inline int connect_to_loopback(uint16_t port, int read_timeout_s = 5) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  timeval timeout{read_timeout_s, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Accepts connections on `listen_fd` until `stopping()` (asked under `mu`, at least every 100 ms)
// says so, and serves each on a thread of its own kept in `workers` (added under `mu`).
template <class Stopping, class Serve>
void accept_until(int listen_fd, std::mutex& mu, std::vector<std::thread>& workers, Stopping stopping,
                  Serve serve) {
  for (;;) {
    pollfd p{listen_fd, POLLIN, 0};
    int r = ::poll(&p, 1, 100);
    {
      std::lock_guard lock(mu);
      if (stopping()) return;
    }
    if (r <= 0) continue;
    int fd = ::accept(listen_fd, nullptr, nullptr);
    if (fd < 0) continue;
    std::lock_guard lock(mu);
    workers.emplace_back([serve, fd] { serve(fd); });
  }
}

}  // namespace parley::e2e
