// Sitemaps (sitemaps.org): a <urlset> lists pages, a <sitemapindex> lists further sitemaps. Read
// with pugixml (no DTDs, no external entities); element names compared without their namespace
// prefix, so a sitemap with or without xmlns reads alike. A gzipped body is inflated first, under
// kMaxSitemapBytes; a plain-text sitemap (one absolute URL a line) is read too. A bad document is
// an error with a reason, never a crash. Pure functions, safe from any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace parley {

// The protocol's own limit on an uncompressed sitemap (50 MB), with room for whitespace.
inline constexpr size_t kMaxSitemapBytes = 64 << 20;

struct SitemapEntry {
  std::string loc;                     // as written, spaces trimmed
  std::optional<std::string> lastmod;  // as written (W3C datetime), when present
};

struct Sitemap {
  std::vector<SitemapEntry> pages;    // <urlset><url><loc>
  std::vector<std::string> sitemaps;  // <sitemapindex><sitemap><loc>
};

// At most `max_entries` pages and sitemaps together; the rest of a longer document is left out.
// 400 invalid_request when the body is not a sitemap ("Not a sitemap: …") or not well-formed
// XML ("The sitemap is not valid XML: …"), or when a gzipped body is damaged or too large.
Result<Sitemap> parse_sitemap(std::string_view body, size_t max_entries = 50'000);

// Inflates gzip data (several members in a row included); 400 invalid_request when it is
// damaged, truncated, or would pass `max_output_bytes`.
Result<std::string> gunzip(std::string_view body, size_t max_output_bytes);

// True when the body starts with gzip's magic bytes (1f 8b).
bool looks_gzipped(std::string_view body);

}  // namespace parley
