#include "https_receiver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include "process.h"

namespace parley::e2e {

void make_self_signed_certificate(const std::string& dir) {
  auto r = run_process({"/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                        "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", dir + "/key.pem",
                        "-out", dir + "/cert.pem", "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"},
                       {});
  if (r.exit_code != 0) throw std::runtime_error("openssl failed: " + r.err);
}

HttpsReceiver::HttpsReceiver(const std::string& cert_file, const std::string& key_file) {
  // A client that gave up (timed out) closes its end; writing the late answer must not kill us.
  signal(SIGPIPE, SIG_IGN);
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (SSL_CTX_use_certificate_chain_file(ctx, cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    throw std::runtime_error("receiver: cannot load certificate");
  }
  ctx_ = ctx;
  listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 128) != 0) {
    throw std::runtime_error("receiver: cannot listen");
  }
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

HttpsReceiver::~HttpsReceiver() {
  stopping_ = true;
  shutdown(listen_fd_, SHUT_RDWR);
  close(listen_fd_);
  acceptor_.join();
  {
    std::lock_guard lock(mu_);
    for (int fd : connections_) shutdown(fd, SHUT_RDWR);
  }
  for (auto& t : workers_) t.join();
  SSL_CTX_free(static_cast<SSL_CTX*>(ctx_));
}

void HttpsReceiver::fail_first_attempts(int n, int status) {
  std::lock_guard lock(mu_);
  fail_first_ = n;
  fail_status_ = status;
}

void HttpsReceiver::fail_all(int status) {
  std::lock_guard lock(mu_);
  fail_all_status_ = status;
}

void HttpsReceiver::stall_first_attempts(int n, int ms) {
  std::lock_guard lock(mu_);
  stall_first_ = n;
  stall_ms_ = ms;
}

std::vector<CapturedRequest> HttpsReceiver::received() const {
  std::lock_guard lock(mu_);
  return received_;
}

std::vector<CapturedRequest> HttpsReceiver::received_on(const std::string& path) const {
  std::vector<CapturedRequest> out;
  for (auto& r : received())
    if (r.path == path) out.push_back(r);
  return out;
}

bool HttpsReceiver::wait_until(const std::function<bool(const std::vector<CapturedRequest>&)>& done,
                               int timeout_ms) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return done(received_); });
}

void HttpsReceiver::accept_loop() {
  while (!stopping_) {
    int fd = accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) {
      if (stopping_) return;
      continue;
    }
    std::lock_guard lock(mu_);
    connections_.push_back(fd);
    workers_.emplace_back([this, fd] { serve(fd); });
  }
}

void HttpsReceiver::serve(int fd) {
  SSL* ssl = SSL_new(static_cast<SSL_CTX*>(ctx_));
  SSL_set_fd(ssl, fd);
  if (SSL_accept(ssl) == 1) {
    std::string buffer;
    char chunk[16384];
    while (!stopping_) {
      size_t header_end;
      while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos) {
        int n = SSL_read(ssl, chunk, sizeof chunk);
        if (n <= 0) goto done;
        buffer.append(chunk, static_cast<size_t>(n));
      }
      CapturedRequest req;
      std::string head = buffer.substr(0, header_end);
      size_t line_end = head.find("\r\n");
      std::string request_line = head.substr(0, line_end);
      size_t sp1 = request_line.find(' '), sp2 = request_line.rfind(' ');
      req.path = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
      size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
      while (pos < head.size()) {
        size_t eol = head.find("\r\n", pos);
        if (eol == std::string::npos) eol = head.size();
        std::string line = head.substr(pos, eol - pos);
        size_t colon = line.find(':');
        if (colon != std::string::npos) {
          std::string name = line.substr(0, colon);
          for (auto& ch : name)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          std::string value = line.substr(colon + 1);
          while (!value.empty() && value.front() == ' ') value.erase(0, 1);
          req.headers[name] = value;
        }
        pos = eol + 2;
      }
      size_t length =
          req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
      buffer.erase(0, header_end + 4);
      while (buffer.size() < length) {
        int n = SSL_read(ssl, chunk, sizeof chunk);
        if (n <= 0) goto done;
        buffer.append(chunk, static_cast<size_t>(n));
      }
      req.body = buffer.substr(0, length);
      buffer.erase(0, length);
      int stall_ms = 0;
      {
        std::lock_guard lock(mu_);
        int seen = seen_per_id_[req.headers["webhook-id"]]++;
        req.answered = fail_all_status_ != 0 ? fail_all_status_
                       : seen < fail_first_  ? fail_status_
                                             : 200;
        if (seen < stall_first_) stall_ms = stall_ms_;
        received_.push_back(req);
      }
      cv_.notify_all();
      if (stall_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(stall_ms));
      std::string response =
          "HTTP/1.1 " + std::to_string(req.answered) + " X\r\nContent-Length: 0\r\n\r\n";
      if (SSL_write(ssl, response.data(), static_cast<int>(response.size())) <= 0) break;
    }
  }
done:
  SSL_free(ssl);
  close(fd);
}

LocalWebhookReceiver::LocalWebhookReceiver() {
  char tpl[] = "/tmp/parley-tls-XXXXXX";
  dir_ = mkdtemp(tpl);
  make_self_signed_certificate(dir_);
  receiver_ = std::make_unique<HttpsReceiver>(dir_ + "/cert.pem", dir_ + "/key.pem");
}

LocalWebhookReceiver::~LocalWebhookReceiver() {
  receiver_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string LocalWebhookReceiver::url(const std::string& path) const {
  return "https://127.0.0.1:" + std::to_string(receiver_->port()) + path;
}

std::map<std::string, std::string> LocalWebhookReceiver::server_env() const {
  return {{"PARLEY_WEBHOOK_EXTRA_CA_FILE", dir_ + "/cert.pem"},
          {"PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS", "1"},
          {"PARLEY_WEBHOOK_POLL_MS", "20"}};
}

}  // namespace parley::e2e
