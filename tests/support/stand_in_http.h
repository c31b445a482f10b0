// What the loopback HTTP stand-ins of outside services (LLM provider, website, Notion API) share:
// writing a whole response to a socket, header names in lower case, and a status's reason phrase.
// Stateless.
#pragma once

#include <sys/socket.h>
#include <sys/types.h>

#include <cctype>
#include <string>
#include <string_view>

#include "http/wire.h"

namespace parley::e2e {

// Sends all of `data`; false when the peer is gone.
inline bool send_all(int fd, const std::string& data) {
  size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

inline std::string ascii_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The status line's reason phrase ("Not Found").
inline std::string status_reason(int status) { return std::string(reason_phrase(status)); }

}  // namespace parley::e2e
