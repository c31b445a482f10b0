// UTF-8 validity (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), for text
// taken from files people upload. Stateless and thread-safe.
#pragma once

#include <string_view>

namespace parley {

bool valid_utf8(std::string_view s);

}  // namespace parley
