// The one outbound HTTP client, over libcurl: webhook deliveries, API actions and LLM providers
// all send through the outbound loop (net/outbound.h); send_to is its blocking form. A call a
// tenant can aim goes through CurlSender::send, which parses the URL (https only), resolves the
// host, checks every address with the URL guard and pins the connection to the checked address
// (net/pinned_curl.h). No redirects are followed, no proxy is used on a pinned call, and every
// call has connect and total timeouts.
//
// Thread-safe; send_to blocks the calling thread (never the outbound loop's own) until the call
// ends, while the loop's thread does the waiting on the network.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "net/pinned_curl.h"
#include "net/url_guard.h"

namespace parley {

struct SendRequest {
  std::string url;
  std::string method = "POST";  // GET, POST, PUT, PATCH or DELETE
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;                // sent with POST, and with any method when not empty
  int64_t connect_timeout_ms = 0;  // 0: the CurlSender's option
  int64_t timeout_ms = 0;          // the whole call; 0: the CurlSender's option
  // The response body is kept up to this many bytes (reading stops there and the outcome says
  // `truncated`); 0: the body is dropped.
  size_t max_response_bytes = 0;
  bool allow_http = false;          // http:// too (an LLM provider in tests and development)
  bool accept_compressed = false;   // advertise gzip and friends; curl decodes the body
  // Calls started together wait for a connection being opened to the same host, to learn whether
  // it multiplexes (HTTP/2), instead of each opening its own. For a host that takes many calls at
  // once (an LLM provider); not for webhook receivers, where one stalled handshake would hold up
  // the others.
  bool share_connections = false;
  // A streamed response: each piece of a 2xx body is handed here as it arrives, instead of being
  // kept (the body of another status is dropped); returning false stops the call. It runs on the
  // outbound loop's thread.
  std::function<bool(std::string_view)> on_body;
  // Response headers the caller reads (Retry-After, ETag, …), by name; their values come back in
  // the outcome's `headers`. Others are not kept.
  std::vector<std::string> response_headers;
};

// Why a call got no response; kNone when one came (whatever its status).
enum class SendFailure { kNone, kUrl, kAddress, kTimeout, kStopped, kTransfer };

struct SendOutcome {
  std::optional<int64_t> status;     // the response code, when a response came
  std::optional<std::string> error;  // why there was no 2xx response
  SendFailure failure = SendFailure::kNone;
  std::string body;                  // up to the request's max_response_bytes
  bool truncated = false;            // the body was cut at that size
  int64_t duration_ms = 0;
  // The request's `response_headers` the response carried (name as asked, value), in that order;
  // also when the caller's `on_body` stopped the call (failure kStopped).
  std::vector<std::pair<std::string, std::string>> headers;

  bool succeeded() const { return status && *status >= 200 && *status < 300; }
  // The value of a kept header (names compared case-insensitively), or nothing.
  std::optional<std::string> header(std::string_view name) const;
};

// One call. With a `target` (from pin_target) the connection goes only to its checked address.
// Without one curl resolves the host itself: only for a host the operator configured (the
// server-wide LLM provider), never one a tenant can aim. `ca_bundle`: PEM trusted instead of the
// system's CAs, or empty. The request's timeouts must be set.
SendOutcome send_to(const SendRequest& request, const PinnedTarget* target,
                    std::string_view ca_bundle = {});

// The system's CAs followed by those of `extra_ca_file`, to trust a private CA besides the
// public ones; empty when no file is given. Fails when the file cannot be read.
Result<std::string> read_ca_bundle(const std::string& extra_ca_file);

// Sends to addresses a tenant chose (webhook receivers); a test or the delivery worker's fake
// stands in for it.
class HttpSender {
 public:
  virtual ~HttpSender() = default;
  virtual SendOutcome send(const SendRequest& request) = 0;
};

struct CurlSenderOptions {
  bool allow_private_targets = false;  // tests and local development only
  std::string ca_bundle;               // PEM trusted instead of the system's CAs, or empty
  int64_t connect_timeout_ms = 5000;
  int64_t timeout_ms = 10000;
};

// The guarded sender: https only, every address the host resolves to checked, the connection
// pinned to the checked address. Refusals fail with kUrl or kAddress before anything is sent.
class CurlSender final : public HttpSender {
 public:
  CurlSender(Resolver& resolver, CurlSenderOptions options)
      : resolver_(resolver), options_(std::move(options)) {}
  SendOutcome send(const SendRequest& request) override;

 private:
  Resolver& resolver_;
  CurlSenderOptions options_;
};

}  // namespace parley
