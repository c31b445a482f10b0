// A listening TCP socket on 127.0.0.1 and a free port, for the test's stand-ins of services
// outside the machine (LLM provider, SMTP server, webhook tarpit). Throws when it cannot listen.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>

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

}  // namespace parley::e2e
