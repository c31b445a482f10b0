// Fuzzes the SSRF guard for webhook URLs: the strict URL parser, the IP literal parser and the
// public-address test, through the subscribe-time check with a resolver that answers without the
// network. Checks that whatever is accepted is what a delivery can use: an https URL's host is
// lower-case ASCII without user info, a literal host parses back to itself, and a literal that
// passed the check is public.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "net/url_guard.h"
#include "fuzz_check.h"

namespace {

using namespace parley;

// Answers every name with one address picked from the name, so both outcomes of the address
// check are reached; no lookups leave the process.
class FakeResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string& host) override {
    if (host.empty() || host.size() % 3 == 0) return ApiError::invalid("does not resolve");
    auto ip = parse_ip(host.size() % 3 == 1 ? "93.184.216.34" : "10.0.0.1");
    return std::vector<IpAddress>{*ip};
  }
};


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  if (auto ip = parse_ip(text)) {
    // Canonical text only: what parses prints back as an address that parses to the same bytes.
    auto again = parse_ip(ip->text());
    FUZZ_CHECK(again && again->family == ip->family && again->bytes == ip->bytes);
    // IPv4 is accepted in its one canonical form only (no octal, hex or short forms).
    if (ip->family == 4) FUZZ_CHECK(ip->text() == text);
    (void)is_public_address(*ip);
  }

  FakeResolver resolver;
  for (bool allow_private : {false, true}) {
    auto url = check_webhook_url(text, resolver, allow_private);
    if (!url.ok()) {
      FUZZ_CHECK(http_status(url.error().code) == 400);
      continue;
    }
    FUZZ_CHECK(!url->host.empty());
    FUZZ_CHECK(url->port != 0);
    for (char c : url->host) FUZZ_CHECK(static_cast<unsigned char>(c) < 0x80 && !(c >= 'A' && c <= 'Z'));
    if (url->literal) {
      FUZZ_CHECK(parse_ip(url->literal->text()).has_value());
      if (!allow_private) FUZZ_CHECK(is_public_address(*url->literal));
    }
    auto pinned = address_for_delivery(*url, resolver, allow_private);
    if (pinned.ok() && !allow_private) FUZZ_CHECK(is_public_address(*pinned));
  }
  return 0;
}
