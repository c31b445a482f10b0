// Fuzzes cursor decoding and the list query parameters (limit, cursor, since). The first byte
// picks how the rest is read: as a whole cursor, or as a cursor payload that gets a valid
// checksum here, so the fuzzer reaches the payload's parsing past the checksum. Checks that a
// decoded position encodes back to a cursor that decodes to the same position.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/crypto.h"
#include "fuzz_check.h"
#include "views/pagination.h"

namespace {

using namespace parley;

constexpr std::string_view kAgent = "agt_0123456789abcdefABCDEF";
constexpr ListKind kKinds[] = {kConversationList, kLeadList, kContactList};


// The cursor layout: base64url("kind.time.id" "." checksum).
std::string with_checksum(std::string_view payload) {
  std::string input = "parley-cursor:" + std::string(kAgent) + ":" + std::string(payload);
  return base64url_encode(std::string(payload) + "." + sha256_hex(input).substr(0, 12));
}

void decode(std::string_view cursor, const ListKind& kind) {
  auto at = decode_cursor(cursor, kind, kAgent);
  if (!at.ok()) {
    FUZZ_CHECK(http_status(at.error().code) == 400);
    return;
  }
  FUZZ_CHECK(at->time >= 0 && at->id.size() <= 64);
  auto again = decode_cursor(encode_cursor(kind, kAgent, *at), kind, kAgent);
  FUZZ_CHECK(again.ok() && again->time == at->time && again->id == at->id);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const ListKind& kind = kKinds[data[0] % 3];
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch ((data[0] / 3) % 3) {
    case 0:
      decode(rest, kind);
      break;
    case 1:
      decode(with_checksum(rest), kind);
      break;
    default: {
      // The rest as a query string, as the list endpoints read it.
      Request req;
      req.query = rest;
      auto q = parse_page_query(req, kind, kAgent);
      if (q.ok()) FUZZ_CHECK(q->limit >= 1 && q->limit <= 100);
      break;
    }
  }
  return 0;
}
