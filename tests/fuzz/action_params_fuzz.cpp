// Fuzzes how an API action's arguments (written by the model, which a visitor's message can steer)
// fill its URL (engine/api_actions.h): the input is one argument, placed in the path and in the
// query of a fixed action. Checks that an accepted request keeps the action's scheme, host and
// path prefix, and that no path segment is a dot segment as written or decoded any number of times,
// so no client or gateway that collapses them can climb to another endpoint with the tenant's
// credentials.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/json.h"
#include "engine/api_actions.h"
#include "fuzz_check.h"

using namespace parley;

namespace {
int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool dot_segment(std::string segment) {
  for (int i = 0; i < 6; ++i) {
    if (segment == "." || segment == "..") return true;
    std::string next = decode(segment);
    if (next == segment) break;
    segment = next;
  }
  return false;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ApiAction action = [] {
    ApiAction a;
    a.name = "orders";
    a.method = "GET";
    a.url = "https://api.shop.example/v1/customers/{customerId}/orders{suffix}";
    a.parameters = {{"customerId", "", true}, {"suffix", "", false}, {"q", "", false}};
    return a;
  }();
  std::string value(reinterpret_cast<const char*>(data), size);
  JsonWriter w;
  w.begin_object()
      .key("customerId")
      .string(value)
      .key("suffix")
      .string(value)
      .key("q")
      .string(value)
      .end_object();
  auto built = build_action_request(action, w.str());
  if (!built.ok()) return 0;
  const std::string& url = built->url;
  const std::string_view prefix = "https://api.shop.example/v1/customers/";
  FUZZ_CHECK(url.compare(0, prefix.size(), prefix) == 0);
  size_t path_end = url.find_first_of("?#", prefix.size() - 1);
  std::string_view path(
      url.data() + prefix.size() - 1,
      (path_end == std::string::npos ? url.size() : path_end) - (prefix.size() - 1));
  FUZZ_CHECK(path.find('#') == std::string_view::npos);
  for (size_t at = 1; at <= path.size();) {
    size_t next = path.find('/', at);
    if (next == std::string_view::npos) next = path.size();
    FUZZ_CHECK(!dot_segment(std::string(path.substr(at, next - at))));
    at = next + 1;
  }
  return 0;
}
