#include "server/web_routes.h"

#include <fstream>
#include <sstream>

#include "core/crypto.h"
#include "http/responses.h"
#include "server/web_assets.h"

namespace parley {

namespace {
constexpr std::string_view kPageSecurity =
    "default-src 'self'; img-src 'self' https:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

// True when Accept-Encoding accepts gzip: listed with a q above 0, or covered by `*` (q above 0)
// when gzip is not listed itself. Codings and `q` in any case.
bool accepts_gzip(std::string_view accept) {
  int gzip = -1, any = -1;  // -1 not listed, 0 refused, 1 accepted
  while (!accept.empty()) {
    size_t comma = accept.find(',');
    std::string_view item = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
    size_t semi = item.find(';');
    std::string coding(item.substr(0, semi));
    std::erase(coding, ' ');
    for (char& c : coding) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (coding != "gzip" && coding != "*") continue;
    bool zero = false;
    if (semi != std::string_view::npos) {
      std::string params(item.substr(semi + 1));
      std::erase(params, ' ');
      for (char& c : params) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (size_t q = params.find("q="); q != std::string::npos) {
        // q=0, q=0.0, q=0.00, q=0.000 refuse it.
        std::string_view value = std::string_view(params).substr(q + 2);
        value = value.substr(0, value.find(';'));
        zero = !value.empty() && value.find_first_not_of("0.") == std::string_view::npos && value.front() == '0';
      }
    }
    (coding == "gzip" ? gzip : any) = zero ? 0 : 1;
  }
  return gzip == 1 || (gzip == -1 && any == 1);
}

// The ETag list of If-None-Match holds this one (or is "*").
bool matches(std::string_view if_none_match, std::string_view etag) {
  if (if_none_match.empty()) return false;
  if (if_none_match == "*") return true;
  return if_none_match.find(etag) != std::string_view::npos;
}

std::string_view cache_control(std::string_view path) {
  if (path == "/widget.js") return "public, max-age=300";
  return "no-cache";
}

Response answer(const Request& req, const WebAsset& a) {
  const bool gzipped = !a.gzip.empty() && accepts_gzip(req.header("Accept-Encoding"));
  // Other bytes, another strong validator (RFC 9110 8.8.3): the gzipped copy's ends in -gz.
  std::string etag(a.etag);
  if (gzipped) etag.insert(etag.size() - 1, "-gz");
  Response r;
  r.content_type = a.content_type;
  r.header("ETag", etag);
  r.header("Cache-Control", std::string(cache_control(a.path)));
  r.header("Vary", "Accept-Encoding");
  r.header("X-Content-Type-Options", "nosniff");
  if (a.path == "/") {
    r.header("Content-Security-Policy", std::string(kPageSecurity));
    r.header("Referrer-Policy", "no-referrer");
  } else if (a.path == "/widget.js") {
    // Sites on any origin load the widget.
    r.header("Cross-Origin-Resource-Policy", "cross-origin");
  }
  if (matches(req.header("If-None-Match"), etag)) {
    r.status = 304;
    return r;
  }
  r.status = 200;
  if (gzipped) r.header("Content-Encoding", "gzip");
  r.body.assign(gzipped ? a.gzip : a.plain);
  return r;
}

// A file of the --web-dir folder, read now, for a path the build makes (served with the embedded
// file's content type).
Response from_folder(const Request& req, const std::string& dir, const WebAsset& known) {
  std::ifstream in(dir + (known.path == "/" ? std::string("/index.html") : std::string(known.path)), std::ios::binary);
  if (!in) return error_response(ApiError::not_found("No such page."));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string plain = bytes.str();
  std::string etag = "\"" + sha256_hex(plain).substr(0, 16) + "\"";
  // Not gzipped from the folder: the embedded copy is what a deployment serves.
  return answer(req, WebAsset{known.path, known.content_type, plain, {}, etag});
}
}  // namespace

void register_web_routes(Router& router, const std::string& web_dir) {
  // One route per file the build makes, so a request finds its file with its route: from memory
  // on the I/O thread, or from the folder on the pool, as that reads a file.
  for (const WebAsset& a : web_assets()) {
    if (a.path.empty()) continue;  // a build without files
    if (web_dir.empty()) {
      router.add("GET", a.path, {[&a](Request& req) { return answer(req, a); }, Execution::kInline});
    } else {
      router.add("GET", a.path, {[&a, web_dir](Request& req) { return from_folder(req, web_dir, a); }, Execution::kPool});
    }
  }
}

}  // namespace parley
