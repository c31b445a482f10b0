// FakeSmtpServer: a tiny SMTP receiver on a loopback port for tests. It speaks enough of the
// protocol for libcurl (220 greeting, EHLO/HELO, MAIL FROM, RCPT TO, DATA ... '.', RSET, NOOP,
// QUIT) and keeps each received message so a test can read it. `refuse_recipients` makes it
// answer RCPT TO with 550. Thread-safe; stops when destroyed.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace parley::e2e {

struct ReceivedMail {
  std::string from;             // MAIL FROM address, without angle brackets
  std::vector<std::string> to;  // RCPT TO addresses
  std::string data;             // the message as received, dot-stuffing undone
};

class FakeSmtpServer {
 public:
  FakeSmtpServer();
  ~FakeSmtpServer();
  FakeSmtpServer(const FakeSmtpServer&) = delete;
  FakeSmtpServer& operator=(const FakeSmtpServer&) = delete;

  std::string url() const;  // "smtp://127.0.0.1:PORT"
  std::vector<ReceivedMail> mails() const;
  // Waits up to `timeout_ms` until at least `count` mails arrived.
  bool wait_for(size_t count, int timeout_ms) const;
  void refuse_recipients(bool refuse);

 private:
  void accept_loop();
  void serve(int fd);

  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread acceptor_;
  std::vector<std::thread> workers_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool stopping_ = false;
  bool refuse_ = false;
  std::vector<ReceivedMail> mails_;
};

}  // namespace parley::e2e
