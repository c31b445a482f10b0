// The addresses a crawl is given, read as the crawler compares them: an absolute http(s) URL,
// checked for the URL guard's form (no user or password, no numeric host tricks, ASCII host) and
// normalised (crawl/url.h), so the same page asked twice is one address. Pure functions.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace parley {

// The normalised address, or 400 invalid_request naming 'url'.
Result<std::string> parse_crawl_url(std::string_view url);

}  // namespace parley
