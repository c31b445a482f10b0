// The HTTP/1.1 server: a listener, keep-alive sessions, optional TLS, request limits, and
// graceful shutdown. Requests are routed with a Router; handlers run inline on the I/O threads or
// on the blocking pool, as each route says. Every failure the server itself detects (unknown
// route, wrong method, oversized headers or body, malformed HTTP, too many large bodies at once)
// is answered in the spec's JSON error shape by `on_error`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/error.h"
#include "http/router.h"

namespace parley {

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;
  size_t io_threads = 0;        // 0: one per usable CPU (core/cpu_count.h)
  size_t blocking_threads = 64;
  // Requests that may wait for a free blocking thread; past it a request gets 503 at once.
  size_t blocking_queue = 16384;
  // Open connections; past it a new connection gets 503 and is closed. 0: from RLIMIT_NOFILE.
  size_t max_connections = 0;
  std::string tls_cert_file;    // PEM; both set for HTTPS
  std::string tls_key_file;
  // When set, GET /metrics answers only `Authorization: Bearer <token>` (401 otherwise).
  std::string metrics_token;
  size_t header_limit = 16 * 1024;
  size_t body_limit = 1024 * 1024;
  // Bytes of request bodies beyond body_limit (routes that take files) that may be held at once,
  // from their headers until their answers; past it such a request gets 503 at once, before its
  // body is read.
  size_t large_body_budget = 512 * 1024 * 1024;
  int idle_timeout_s = 60;      // waiting for the next request on a kept-alive connection
  int read_timeout_s = 30;      // reading the rest of a request, a TLS handshake, writing a response
  int shutdown_grace_s = 60;    // how long in-flight requests may take to finish on SIGTERM
  // After an error reply sent before the request was read (413, 431, 400, 503), the server stops
  // writing and reads and drops what the client still sends, up to these bounds, before closing:
  // closing with unread bytes would reset the connection and the client could lose the reply.
  int linger_ms = 5000;
  size_t linger_bytes = 4 * 1024 * 1024;
};

// Connections rejected with a 503 (and lingering) at once past the cap; beyond this many, further
// ones are closed without a reply so rejecting costs a bounded number of descriptors.
constexpr size_t kMaxRejecting = 64;

// The default connection cap for a soft descriptor limit: the limit less the descriptors already
// open (database, logs, listener) and a reserve for outgoing HTTP, files opened later and
// rejections (a quarter of the limit, between 16 and 1024); at least 1.
size_t default_max_connections(uint64_t nofile_soft_limit, size_t open_now);
// The same for this process's RLIMIT_NOFILE and open descriptors.
size_t default_max_connections();

// Called for every request after the response is known (for the request log).
struct RequestLog {
  std::string_view method;
  std::string_view path;
  int status;
  double duration_ms;
  std::string_view request_id;
  std::string_view remote;
};

struct ServerHooks {
  // Builds the error response for failures the server detects before any handler runs.
  std::function<Response(const ApiError&, Request&)> on_error;
  std::function<void(const RequestLog&)> on_logged;
  // Writes each request's id into `id` (empty on entry; its storage is reused between requests).
  std::function<void(std::string& id)> new_request_id;
  // Appends the application's own series to GET /metrics (Prometheus text); may be empty.
  std::function<void(std::string& out)> more_metrics;
  // Runs once when shutdown begins, before in-flight requests are waited for: ends answers that
  // would otherwise stay open (live event streams). May be empty.
  std::function<void()> on_draining;
  // Runs once when the grace period is spent with requests still in flight, before the I/O
  // threads stop: ends work that would hold them longer (a document's reader). May be empty.
  std::function<void()> on_grace_spent;
};

class HttpServer {
 public:
  HttpServer(ServerOptions options, const Router& router, ServerHooks hooks);
  ~HttpServer();

  // Binds and listens; returns the bound port (useful with port 0). Throws on failure.
  uint16_t listen();
  // Serves until SIGINT/SIGTERM (or stop()), then finishes in-flight requests and returns.
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parley
