#include "fake_smtp_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "loopback_listener.h"

namespace parley::e2e {

namespace {
bool say(int fd, const std::string& line) {
  std::string out = line + "\r\n";
  return ::send(fd, out.data(), out.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(out.size());
}

std::string upper_prefix(const std::string& line, size_t n) {
  std::string out = line.substr(0, std::min(n, line.size()));
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  return out;
}

std::string address_of(const std::string& line) {
  size_t open = line.find('<');
  size_t close = line.find('>', open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

// Reads one CRLF-terminated line (without the CRLF); false when the peer closed.
bool read_line(int fd, std::string& buffer, std::string& line) {
  for (;;) {
    size_t end = buffer.find("\r\n");
    if (end != std::string::npos) {
      line = buffer.substr(0, end);
      buffer.erase(0, end + 2);
      return true;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) return false;
    char buf[4096];
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    buffer.append(buf, static_cast<size_t>(n));
  }
}
}  // namespace

FakeSmtpServer::FakeSmtpServer() {
  auto listener = listen_on_loopback(16);
  listen_fd_ = listener.fd;
  port_ = listener.port;
  acceptor_ = std::thread([this] { accept_loop(); });
}

FakeSmtpServer::~FakeSmtpServer() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  ::shutdown(listen_fd_, SHUT_RDWR);
  ::close(listen_fd_);
  acceptor_.join();
  for (auto& t : workers_) t.join();
}

std::string FakeSmtpServer::url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }

std::vector<ReceivedMail> FakeSmtpServer::mails() const {
  std::lock_guard lock(mu_);
  return mails_;
}

bool FakeSmtpServer::wait_for(size_t count, int timeout_ms) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                      [&] { return mails_.size() >= count; });
}

void FakeSmtpServer::refuse_recipients(bool refuse) {
  std::lock_guard lock(mu_);
  refuse_ = refuse;
}

void FakeSmtpServer::accept_loop() {
  accept_until(listen_fd_, mu_, workers_, [this] { return stopping_; }, [this](int fd) { serve(fd); });
}

void FakeSmtpServer::serve(int fd) {
  std::string buffer, line;
  ReceivedMail mail;
  say(fd, "220 fake-smtp ready");
  while (read_line(fd, buffer, line)) {
    std::string verb = upper_prefix(line, 4);
    if (verb == "EHLO") {
      say(fd, "250-fake-smtp");
      say(fd, "250 8BITMIME");
    } else if (verb == "HELO") {
      say(fd, "250 fake-smtp");
    } else if (upper_prefix(line, 10) == "MAIL FROM:") {
      mail = ReceivedMail{};
      mail.from = address_of(line);
      say(fd, "250 OK");
    } else if (upper_prefix(line, 8) == "RCPT TO:") {
      bool refuse;
      {
        std::lock_guard lock(mu_);
        refuse = refuse_;
      }
      if (refuse) {
        say(fd, "550 No such user");
      } else {
        mail.to.push_back(address_of(line));
        say(fd, "250 OK");
      }
    } else if (verb == "DATA") {
      say(fd, "354 End data with <CR><LF>.<CR><LF>");
      std::string data;
      bool complete = false;
      while (read_line(fd, buffer, line)) {
        if (line == ".") {
          complete = true;
          break;
        }
        if (!line.empty() && line[0] == '.') line.erase(0, 1);
        data += line + "\r\n";
      }
      if (!complete) break;
      mail.data = data;
      {
        std::lock_guard lock(mu_);
        mails_.push_back(mail);
      }
      cv_.notify_all();
      say(fd, "250 OK: queued");
    } else if (verb == "RSET" || verb == "NOOP") {
      say(fd, "250 OK");
    } else if (verb == "QUIT") {
      say(fd, "221 Bye");
      break;
    } else {
      say(fd, "502 Command not implemented");
    }
  }
  ::close(fd);
}

}  // namespace parley::e2e
