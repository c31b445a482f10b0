// The dashboard at `/` (its scripts and styles under /assets/) and the website widget at
// /widget.js, from the copy embedded in the binary (server/web_assets.h) or, when `web_dir` is
// set (--web-dir, for working on the front end), from that folder on each request.
//
// Each answer carries a strong ETag (If-None-Match gives 304) and is sent gzipped to a client that
// accepts it. The page must be revalidated on each load (no-cache), so a new binary's dashboard is
// seen at once; /widget.js may be cached by browsers for 5 minutes, as the sites that embed it
// load it on every page. The dashboard's page forbids framing and loads nothing from elsewhere
// (Content-Security-Policy).
#pragma once

#include <string>

#include "http/router.h"

namespace parley {

void register_web_routes(Router& router, const std::string& web_dir);

}  // namespace parley
