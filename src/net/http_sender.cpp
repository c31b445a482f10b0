#include "net/http_sender.h"

#include <curl/curl.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "net/pinned_curl.h"

namespace parley {

namespace {
struct CurlGlobal {
  CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

// One easy handle per thread, so connections to a receiver are reused between deliveries.
CURL* thread_handle() {
  static CurlGlobal global;
  struct Holder {
    CURL* h = curl_easy_init();
    ~Holder() { curl_easy_cleanup(h); }
  };
  thread_local Holder holder;
  curl_easy_reset(holder.h);
  return holder.h;
}

size_t discard_body(char*, size_t size, size_t n, void*) { return size * n; }

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

Result<std::unique_ptr<CurlSender>> CurlSender::create(Resolver& resolver,
                                                       CurlSenderOptions options) {
  std::string bundle;
  if (!options.extra_ca_file.empty()) {
    auto extra = read_text(options.extra_ca_file);
    if (!extra)
      return ApiError::invalid("Cannot read the webhook CA file " + options.extra_ca_file + ".");
    for (const char* system :
         {"/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"}) {
      if (auto s = read_text(system)) {
        bundle = *s + "\n";
        break;
      }
    }
    bundle += *extra;
  }
  return std::unique_ptr<CurlSender>(
      new CurlSender(resolver, std::move(options), std::move(bundle)));
}

SendOutcome CurlSender::send(const SendRequest& request) {
  SendOutcome out;
  auto started = std::chrono::steady_clock::now();
  auto finish = [&](SendOutcome& o) -> SendOutcome {
    o.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
    return o;
  };
  auto url = parse_webhook_url(request.url);
  if (!url.ok()) {
    out.error = url.error().message;
    return finish(out);
  }
  auto target = pin_target(*url, resolver_, options_.allow_private_targets);
  if (!target.ok()) {
    out.error = target.error().message;
    return finish(out);
  }
  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "Content-Type: application/json");
  headers = curl_slist_append(headers, "User-Agent: Parley-Webhooks/1");
  headers = curl_slist_append(headers, "Expect:");
  for (const auto& [name, value] : request.headers)
    headers = curl_slist_append(headers, (name + ": " + value).c_str());

  CURL* c = thread_handle();
  CurlPin pin(c, *target);
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout_ms));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard_body);
  if (!ca_bundle_.empty()) {
    curl_blob blob{const_cast<char*>(ca_bundle_.data()), ca_bundle_.size(), CURL_BLOB_NOCOPY};
    curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &blob);
  }
  CURLcode rc = curl_easy_perform(c);
  if (rc == CURLE_OK) {
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    out.status = code;
    if (!out.succeeded()) out.error = "HTTP " + std::to_string(code);
  } else {
    out.error = curl_easy_strerror(rc);
  }
  // The handle is kept for reuse: drop what points into this call's memory (the pin drops its own).
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
  curl_slist_free_all(headers);
  return finish(out);
}

}  // namespace parley
