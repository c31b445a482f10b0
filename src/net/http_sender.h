// Sends one webhook request over HTTPS with libcurl, connecting only to an address the URL guard
// has just checked: the host is resolved and checked here and the connection pinned to that
// address (net/pinned_curl.h). No redirects are followed, no proxy is used, and every request
// has connect and total timeouts.
//
// Thread-safe: each calling thread uses its own curl handle (kept for connection reuse).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "net/url_guard.h"

namespace parley {

struct SendRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct SendOutcome {
  std::optional<int64_t> status;     // the response code, when a response came
  std::optional<std::string> error;  // why there was no 2xx response
  int64_t duration_ms = 0;

  bool succeeded() const { return status && *status >= 200 && *status < 300; }
};

class WebhookSender {
 public:
  virtual ~WebhookSender() = default;
  virtual SendOutcome send(const SendRequest& request) = 0;
};

struct CurlSenderOptions {
  bool allow_private_targets = false;  // tests and local development only
  std::string extra_ca_file;           // PEM file trusted in addition to the system's CAs
  int64_t connect_timeout_ms = 5000;
  int64_t timeout_ms = 10000;
};

class CurlSender final : public WebhookSender {
 public:
  // Fails when the extra CA file cannot be read.
  static Result<std::unique_ptr<CurlSender>> create(Resolver& resolver, CurlSenderOptions options);
  SendOutcome send(const SendRequest& request) override;

 private:
  CurlSender(Resolver& resolver, CurlSenderOptions options, std::string ca_bundle)
      : resolver_(resolver), options_(std::move(options)), ca_bundle_(std::move(ca_bundle)) {}

  Resolver& resolver_;
  CurlSenderOptions options_;
  std::string ca_bundle_;  // system CAs plus the extra CA, when one is configured
};

}  // namespace parley
