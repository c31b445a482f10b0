#include "http/message.h"

namespace parley {

namespace {
int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

namespace {
// %XX decoding; a query component also reads '+' as a space, a path does not.
enum class Plus { kSpace, kLiteral };
std::string percent_decode(std::string_view s, Plus plus) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '+' && plus == Plus::kSpace) {
      out.push_back(' ');
    } else if (c == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}
}  // namespace

std::string url_decode(std::string_view s) { return percent_decode(s, Plus::kSpace); }

std::string path_decode(std::string_view s) {
  if (s.find('%') == std::string_view::npos) return std::string(s);
  return percent_decode(s, Plus::kLiteral);
}

std::string Request::query_param(std::string_view name, bool* found) const {
  std::string_view q = query;
  std::string value;
  bool seen = false;
  while (!q.empty()) {
    size_t amp = q.find('&');
    std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    size_t eq = pair.find('=');
    std::string key = url_decode(pair.substr(0, eq));
    if (key == name && !seen) {
      seen = true;
      value = eq == std::string_view::npos ? std::string() : url_decode(pair.substr(eq + 1));
    }
  }
  if (found != nullptr) *found = seen;
  return value;
}

}  // namespace parley
