// A real HTTPS webhook receiver for end-to-end tests: listens on 127.0.0.1 with a self-signed
// certificate made by the openssl CLI, records every request, and can fail the first attempts of
// each webhook-id to exercise retries. Thread-safe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace parley::e2e {

struct CapturedRequest {
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  int answered = 0;  // the status the receiver answered with
};

// Writes cert.pem and key.pem (CN and SAN localhost / 127.0.0.1) into `dir`.
void make_self_signed_certificate(const std::string& dir);

class HttpsReceiver {
 public:
  HttpsReceiver(const std::string& cert_file, const std::string& key_file);
  ~HttpsReceiver();
  HttpsReceiver(const HttpsReceiver&) = delete;
  HttpsReceiver& operator=(const HttpsReceiver&) = delete;

  uint16_t port() const { return port_; }
  // Each webhook-id's first `n` requests get `status`; later ones 200.
  void fail_first_attempts(int n, int status = 500);
  // Every request gets `status` (a receiver that is down) until called again with 0 (it
  // recovers: then fail_first_attempts applies again).
  void fail_all(int status);
  // Each webhook-id's first `n` requests are answered only after `ms` (to exercise timeouts).
  void stall_first_attempts(int n, int ms);
  std::vector<CapturedRequest> received() const;
  std::vector<CapturedRequest> received_on(const std::string& path) const;
  // Waits (up to `timeout_ms`) until `done` holds for the requests received so far.
  bool wait_until(const std::function<bool(const std::vector<CapturedRequest>&)>& done,
                  int timeout_ms = 20000) const;

 private:
  void accept_loop();
  void serve(int fd);

  void* ctx_ = nullptr;  // SSL_CTX
  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<CapturedRequest> received_;
  std::map<std::string, int> seen_per_id_;
  std::vector<int> connections_;
  std::vector<std::thread> workers_;
  int fail_first_ = 0;
  int fail_status_ = 500;
  int fail_all_status_ = 0;
  int stall_first_ = 0;
  int stall_ms_ = 0;
};

// An HTTPS receiver with a self-signed certificate of its own (in a temporary folder removed
// with it), and what a server needs to deliver to it.
class LocalWebhookReceiver {
 public:
  LocalWebhookReceiver();
  ~LocalWebhookReceiver();
  LocalWebhookReceiver(const LocalWebhookReceiver&) = delete;
  LocalWebhookReceiver& operator=(const LocalWebhookReceiver&) = delete;

  HttpsReceiver& receiver() { return *receiver_; }
  std::string url(const std::string& path) const;
  // The certificate trusted, private targets allowed, the outbox polled every 20 ms.
  std::map<std::string, std::string> server_env() const;

 private:
  std::string dir_;
  std::unique_ptr<HttpsReceiver> receiver_;
};

}  // namespace parley::e2e
