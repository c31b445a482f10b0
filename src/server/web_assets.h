// The dashboard and the widget as built from web/ (web/build.mjs), embedded at build time by
// scripts/gen-web-assets.py: each file with its URL path ("/" for the dashboard's page), content
// type, bytes, gzipped bytes and strong ETag. Served by server/web_routes.h.
#pragma once

#include <span>
#include <string_view>

namespace parley {

struct WebAsset {
  std::string_view path;
  std::string_view content_type;
  std::string_view plain;
  std::string_view gzip;
  std::string_view etag;
};

std::span<const WebAsset> web_assets();

}  // namespace parley
