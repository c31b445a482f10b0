// The one way an outbound call that a tenant can aim (webhook deliveries, API actions, an agent's
// own LLM provider) reaches its host: the name is resolved once, every address it resolves to is
// checked by the URL guard, and the libcurl transfer is pinned to the checked address. The pin is
// CURLOPT_CONNECT_TO (curl never resolves the name again, so a DNS answer that changes between
// the check and the connection, DNS rebinding, reaches nothing, and only transfers with the same
// pin share a connection) and a socket callback that refuses any other address (an address curl
// found itself, a proxy); proxies are turned off.
//
// pin_target is thread-safe when its Resolver is; a CurlPin belongs to one transfer.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <string>

#include "core/result.h"
#include "net/url_guard.h"

namespace parley {

struct PinnedTarget {
  std::string host;  // the URL's host (lower-cased name or address text, no brackets)
  uint16_t port = 443;
  IpAddress address;  // the checked address every connection must use
};

// Resolves the URL's host once (a literal address is its own answer) and returns the address to
// pin (IPv4 first). Unless `allow_private` (tests and local development only), internal names
// and names resolving to any non-public address are refused, as is a name that does not resolve.
Result<PinnedTarget> pin_target(const WebhookUrl& url, Resolver& resolver, bool allow_private);

// Pins a curl handle to a target for one transfer. Removes what it set when destroyed, so that a
// handle kept for reuse holds no pointer into it. Not copyable; lives until the transfer ends.
class CurlPin {
 public:
  CurlPin(CURL* handle, const PinnedTarget& target);
  ~CurlPin();
  CurlPin(const CurlPin&) = delete;
  CurlPin& operator=(const CurlPin&) = delete;

 private:
  CURL* handle_;
  IpAddress address_;
  curl_slist* connect_to_ = nullptr;
};

}  // namespace parley
