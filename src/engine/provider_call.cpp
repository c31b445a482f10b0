#include "engine/provider_call.h"

#include <algorithm>

namespace parley {

TransferCall provider_transfer(ProviderCall call) {
  TransferCall t;
  SendRequest& r = t.request;
  r.url = std::move(call.url);
  r.body = std::move(call.body);
  r.headers = {{"Content-Type", "application/json"}, {"Accept", std::string(call.accept)}};
  if (!call.api_key.empty()) r.headers.emplace_back("Authorization", "Bearer " + call.api_key);
  r.timeout_ms = call.timeout_ms;
  r.connect_timeout_ms = std::min<int64_t>(call.timeout_ms, 10000);
  r.allow_http = true;
  r.accept_compressed = true;
  r.share_connections = true;
  t.pin = std::move(call.pin);
  t.ca_file = std::move(call.ca_file);
  return t;
}

}  // namespace parley
