#include "net/pinned_curl.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <cstring>

namespace parley {

namespace {
// Opens a connection's socket only to the pinned address.
curl_socket_t open_pinned_socket(void* clientp, curlsocktype purpose, curl_sockaddr* addr) {
  const auto* pinned = static_cast<const IpAddress*>(clientp);
  if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKET_BAD;
  bool same = false;
  if (addr->family == AF_INET && pinned->family == 4) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr->addr);
    same = std::memcmp(&in->sin_addr, pinned->bytes.data(), 4) == 0;
  } else if (addr->family == AF_INET6 && pinned->family == 6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr->addr);
    same = std::memcmp(&in6->sin6_addr, pinned->bytes.data(), 16) == 0;
  }
  if (!same) return CURL_SOCKET_BAD;
  return socket(addr->family, addr->socktype, addr->protocol);
}
}  // namespace

Result<PinnedTarget> pin_target(const WebhookUrl& url, Resolver& resolver, bool allow_private) {
  PARLEY_ASSIGN_OR_RETURN(IpAddress address, address_for_delivery(url, resolver, allow_private));
  if (!allow_private) PARLEY_TRY(check_host_name(url));
  return PinnedTarget{url.host, url.port, address};
}

CurlPin::CurlPin(CURL* handle, const PinnedTarget& target)
    : handle_(handle), address_(target.address) {
  std::string pinned = address_.family == 6 ? "[" + address_.text() + "]" : address_.text();
  std::string port = std::to_string(target.port);
  // "host:port:address:port": curl connects to the address and never resolves the name, and a
  // connection is reused only by a transfer with the same pin (curl matches the connect-to host),
  // so a pinned call never rides a connection whose address was not checked.
  connect_to_ = curl_slist_append(nullptr, (target.host + ":" + port + ":" + pinned + ":" + port).c_str());
  curl_easy_setopt(handle_, CURLOPT_CONNECT_TO, connect_to_);
  curl_easy_setopt(handle_, CURLOPT_OPENSOCKETFUNCTION, open_pinned_socket);
  curl_easy_setopt(handle_, CURLOPT_OPENSOCKETDATA, &address_);
  curl_easy_setopt(handle_, CURLOPT_NOPROXY, "*");
}

CurlPin::~CurlPin() {
  curl_easy_setopt(handle_, CURLOPT_CONNECT_TO, nullptr);
  curl_easy_setopt(handle_, CURLOPT_OPENSOCKETFUNCTION, nullptr);
  curl_easy_setopt(handle_, CURLOPT_OPENSOCKETDATA, nullptr);
  curl_slist_free_all(connect_to_);
}

}  // namespace parley
