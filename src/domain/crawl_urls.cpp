#include "domain/crawl_urls.h"

#include <cctype>

#include "crawl/url.h"
#include "net/url_guard.h"

namespace parley {

Result<std::string> parse_crawl_url(std::string_view url) {
  auto starts = [&](std::string_view scheme) {
    if (url.size() < scheme.size()) return false;
    for (size_t i = 0; i < scheme.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(url[i])) != scheme[i]) return false;
    return true;
  };
  if (!starts("http://") && !starts("https://"))
    return ApiError::invalid("'url' must be an http:// or https:// address.");
  // The guard's form first (its reasons are the clearest), then the crawler's normal form.
  PARLEY_TRY(parse_target_url(url, true));
  auto parsed = parse_url(url);
  if (!parsed) return ApiError::invalid("'url' is not a valid http(s) address.");
  return parsed->text();
}

}  // namespace parley
