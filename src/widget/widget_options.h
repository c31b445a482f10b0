// Settings of the widget channel fixed when `parley serve` starts. Immutable afterwards.
#pragma once

#include <cstdint>
#include <string>

#include "http/client_address.h"

namespace parley {

struct WidgetOptions {
  // The request header a trusted proxy fills with the visitor's ISO country code
  // (e.g. "CF-IPCountry"); empty: countries are unknown (null) and none is blocked.
  std::string country_header;
  // Who a request comes from (a trusted proxy's header, IPv6 grouping): the key of every
  // per-address limit, the console's login limits included.
  ClientAddressOptions client_address;
  // Limits of the anonymous endpoints (widget/widget_limits.h), each a `serve` setting.
  int64_t requests_per_minute_per_address = 120;
  int64_t messages_per_minute_per_address = 20;
  int64_t visitors_per_address = 3;
  int64_t records_per_conversation_per_hour = 10;
  int64_t record_max_bytes = 8 * 1024;
  int64_t contacts_per_hour_per_address = 5;
  int64_t contacts_per_hour_per_agent = 60;
};

}  // namespace parley
