// Settings of the widget channel fixed when `parley serve` starts. Immutable afterwards.
#pragma once

#include <string>

namespace parley {

struct WidgetOptions {
  // The request header a trusted proxy fills with the visitor's ISO country code
  // (e.g. "CF-IPCountry"); empty: countries are unknown (null) and none is blocked.
  std::string country_header;
};

}  // namespace parley
