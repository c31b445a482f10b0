// A raw client connection for tests that speak HTTP/1.1 byte by byte: writes exactly what the
// test gives, reads with deadlines, and tells when the server has closed. Not thread-safe.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <utility>

#include "harness.h"

namespace parley::e2e {

using namespace std::chrono_literals;

// One client connection, read with deadlines.
class Connection {
 public:
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

 public:
  explicit Connection(uint16_t port) : fd_(connect_loopback(port)) {}
  ~Connection() {
    if (fd_ >= 0) close(fd_);
  }
  bool connected() const { return fd_ >= 0; }

  // Writes all of `bytes` (blocking); false once the peer has closed or reset the connection.
  bool send(const std::string& bytes) {
    for (size_t at = 0; at < bytes.size();) {
      ssize_t n = ::send(fd_, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return false;
      at += static_cast<size_t>(n);
    }
    return true;
  }

  // Reads until `text` has been received `count` times, the peer closes, or `wait` passes, and
  // returns everything read.
  std::string read_until(const std::string& text, int count = 1,
                         std::chrono::milliseconds wait = 3000ms) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (occurrences(text) < count && fill(deadline)) {
    }
    return std::exchange(data_, "");
  }
  // Reads one whole response with a Content-Length body; bytes after it stay for the next call.
  std::string read_response() {
    auto deadline = std::chrono::steady_clock::now() + 3000ms;
    size_t end;
    while ((end = data_.find("\r\n\r\n")) == std::string::npos && fill(deadline)) {
    }
    if (end == std::string::npos) return std::exchange(data_, "");
    size_t total = end + 4 + content_length(data_.substr(0, end + 2));
    while (data_.size() < total && fill(deadline)) {
    }
    std::string response = data_.substr(0, total);
    data_.erase(0, std::min(total, data_.size()));
    return response;
  }
  // True once the server has closed the connection (waiting up to `wait`).
  bool closed_by_peer(std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (fill(deadline)) {
    }
    return closed_;
  }

  static size_t content_length(const std::string& head) {
    std::smatch m;
    if (std::regex_search(head, m, std::regex("\r\n[Cc]ontent-[Ll]ength: (\\d+)")))
      return std::stoul(m[1]);
    return 0;
  }

 private:
  // Reads what arrives before `deadline`; false once the peer has closed or time is up.
  bool fill(std::chrono::steady_clock::time_point deadline) {
    if (closed_) return false;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char buf[65536];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) {
      closed_ = true;
      return false;
    }
    data_.append(buf, static_cast<size_t>(n));
    return true;
  }
  int occurrences(const std::string& text) const {
    int n = 0;
    for (size_t at = data_.find(text); at != std::string::npos;
         at = data_.find(text, at + text.size()))
      ++n;
    return n;
  }
  int fd_ = -1;
  bool closed_ = false;
  std::string data_;
};

inline std::string body_of(const std::string& response) {
  size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

}  // namespace parley::e2e
