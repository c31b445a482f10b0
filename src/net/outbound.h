// The outbound event loop: every HTTP call Parley makes (LLM providers, embeddings, API actions,
// webhook deliveries) is a libcurl transfer run by one thread that waits on all their sockets at
// once (curl's multi-socket interface over epoll). A call waiting on a slow peer is a transfer
// object of a few kilobytes, not a thread, so a node can wait on thousands of providers at once.
// Transfers share the loop's connection cache: concurrent calls to one https host multiplex over
// HTTP/2 where the host speaks it (ALPN), and a pinned call only ever reuses a connection opened
// under the same pin (net/pinned_curl.h). HTTP/2 without TLS (prior knowledge) is not offered:
// Debian 12's libcurl 7.88 breaks such a connection when it reuses it (curl issue #10634).
//
// Threading: start_transfer() and a Transfer's pause/resume are safe from any thread. A
// transfer's `on_body` and `done` run on the loop thread and must not block; work that blocks
// (a database write, a call through send_to) is posted elsewhere. send_to() (net/http_sender.h)
// is the blocking form, for threads that may wait; it must not be called on the loop thread.
#pragma once

#include <curl/curl.h>

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "net/http_sender.h"
#include "net/pinned_curl.h"

namespace parley {

// A started transfer. Holding it keeps nothing alive: the loop owns the transfer until `done`.
class Transfer {
 public:
  virtual ~Transfer() = default;
  // Past this many bytes handed over while a transfer on a multiplexed connection is held (see
  // pause()), the transfer ends as if `on_body` had stopped it.
  static constexpr size_t kMostUnpaused = 1 << 20;

  // Called from `on_body`: the body stops being read after the piece being handed over, until
  // resume(). Bytes the peer keeps sending wait in the kernel's socket buffer, so a reader that
  // falls behind slows the peer instead of growing a buffer here. Not over HTTP/2, where
  // transfers to one host share a connection: pausing one stream would hold them all (libcurl
  // 7.88). There the pieces keep coming and the caller keeps what its reader has not taken, up to
  // kMostUnpaused bytes from the first piece handed over while held to resume(); then the
  // transfer ends (failure kStopped), so a reader that stays behind cannot make the caller
  // buffer a stream without bound.
  virtual void pause() = 0;
  // Reading goes on (from any thread; a transfer not paused is left as it is).
  virtual void resume() = 0;
};

struct TransferCall {
  SendRequest request;                // on_body runs on the loop thread
  std::optional<PinnedTarget> pin;    // see send_to
  std::string_view ca_bundle;         // must outlive the transfer (a long-lived option)
  // A PEM file of CAs trusted besides the system's, or empty. Unlike `ca_bundle`, a file lets
  // curl build the trust store once and share it between connections (CURLOPT_CA_CACHE_TIMEOUT):
  // with a bundle in memory every new TLS connection parses it again (~1 MB, ~15 ms each).
  std::string ca_file;
  std::function<void(SendOutcome)> done;  // exactly once, on the loop thread
};

// Starts a call on the loop; its request's timeouts must be set.
std::shared_ptr<Transfer> start_transfer(TransferCall call);

// Runs a curl handle the caller has set up (a transfer of another protocol, such as the hand-off
// mail's SMTP) on the loop and waits for its outcome, as curl_easy_perform would. The handle's
// callbacks run on the loop thread. Not on the loop thread itself.
CURLcode perform_on_loop(CURL* easy);

// Inside a transfer's `on_body`: that transfer (to pause it, or to resume it later); else null.
std::shared_ptr<Transfer> this_transfer();

// Ends every transfer under way (each `done` receives kStopped; perform_on_loop returns
// CURLE_ABORTED_BY_CALLBACK), for a server that is stopping: the replies waiting on them finish
// while the services they use still exist. Returns once that is queued, not done.
void cancel_transfers();

// Starts the loop's thread now, if it is not running yet. A new thread takes the niceness of the
// thread that makes it, and the loop times every outbound call: `serve` starts it from its main
// thread before any work thread (core/thread_priority.h) can make it on first use.
void start_outbound_loop();

// Transfers under way (for metrics and tests).
size_t transfers_in_flight();

// True on the loop thread (send_to refuses to block it).
bool on_outbound_loop();

}  // namespace parley
