// The outbound call to an OpenAI-compatible provider, as the completion and embeddings clients
// both make it: JSON in, the key only in `Authorization: Bearer`, http allowed (local
// providers), compressed answers accepted, connections shared (HTTP/2 over TLS), the connection
// bounded by 10 s and the whole call by its timeout. Stateless.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "net/outbound.h"

namespace parley {

struct ProviderCall {
  std::string url;
  std::string body;
  std::string_view accept;  // the response's media type
  std::string api_key;      // may be empty
  int64_t timeout_ms = 0;
  std::optional<PinnedTarget> pin;
  std::string ca_file;
};

// The transfer for `call`; the caller adds its body handler and `done`.
TransferCall provider_transfer(ProviderCall call);

}  // namespace parley
