#include "net/http_sender.h"

#include <curl/curl.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>

namespace parley {

namespace {
struct CurlGlobal {
  CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

// A curl handle for one call. Pinned calls share one handle per thread, so connections to a
// receiver are reused between calls; only connections opened under a pin are kept that way, so a
// pinned call never reuses one whose address was not checked. An unpinned call, or a call made
// while the thread's handle is busy, gets a handle of its own.
class Handle {
 public:
  explicit Handle(bool reusable) {
    static CurlGlobal global;
    if (reusable && !shared().busy) {
      shared_ = &shared();
      shared_->busy = true;
      handle_ = shared_->h;
      curl_easy_reset(handle_);
    } else {
      own_.reset(curl_easy_init());
      handle_ = own_.get();
    }
  }
  ~Handle() {
    if (shared_) shared_->busy = false;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  CURL* get() const { return handle_; }

 private:
  struct Shared {
    CURL* h = curl_easy_init();
    bool busy = false;
    ~Shared() { curl_easy_cleanup(h); }
  };
  static Shared& shared() {
    thread_local Shared s;
    return s;
  }
  Shared* shared_ = nullptr;
  std::unique_ptr<CURL, CurlDeleter> own_;
  CURL* handle_ = nullptr;
};

// What the body callbacks need while the response arrives.
struct Transfer {
  CURL* handle = nullptr;
  const SendRequest* request = nullptr;
  std::string body;
  bool truncated = false;
  bool stopped = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
  if (t->request->on_body) {
    long status = 0;
    curl_easy_getinfo(t->handle, CURLINFO_RESPONSE_CODE, &status);
    if (status < 200 || status >= 300) return n;  // not the stream asked for: dropped
    if (t->request->on_body(std::string_view(data, n))) return n;
    t->stopped = true;
    return 0;
  }
  size_t room = t->request->max_response_bytes - t->body.size();
  if (n > room) {
    t->body.append(data, room);
    t->truncated = true;
    return 0;  // stop reading: the cap is reached
  }
  t->body.append(data, n);
  return n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (!t->request->stop()) return 0;
  t->stopped = true;
  return 1;
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void set_method(CURL* c, const SendRequest& request) {
  if (request.method != "GET" && request.method != "POST")
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.method == "POST" || !request.body.empty()) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
}
}  // namespace

Result<std::string> read_ca_bundle(const std::string& extra_ca_file) {
  if (extra_ca_file.empty()) return std::string();
  auto extra = read_text(extra_ca_file);
  if (!extra) return ApiError::invalid("Cannot read the webhook CA file " + extra_ca_file + ".");
  std::string bundle;
  for (const char* system :
       {"/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"}) {
    if (auto s = read_text(system)) {
      bundle = *s + "\n";
      break;
    }
  }
  return bundle + *extra;
}

SendOutcome send_to(const SendRequest& request, const PinnedTarget* target,
                    std::string_view ca_bundle) {
  SendOutcome out;
  auto started = std::chrono::steady_clock::now();
  Handle handle(/*reusable=*/target != nullptr);
  CURL* c = handle.get();
  if (c == nullptr) {
    out.failure = SendFailure::kTransfer;
    out.error = "could not start a transfer";
    return out;
  }
  curl_slist* raw = curl_slist_append(nullptr, "Expect:");
  for (const auto& [name, value] : request.headers)
    raw = curl_slist_append(raw, (name + ": " + value).c_str());
  std::unique_ptr<curl_slist, SlistDeleter> headers(raw);
  Transfer transfer;
  transfer.handle = c;
  transfer.request = &request;

  std::optional<CurlPin> pin;
  if (target) pin.emplace(c, *target);
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, request.allow_http ? "http,https" : "https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.connect_timeout_ms));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_ms));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  set_method(c, request);
  if (request.accept_compressed) curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &transfer);
  if (request.stop) {
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &transfer);
  }
  if (!ca_bundle.empty()) {
    curl_blob blob{const_cast<char*>(ca_bundle.data()), ca_bundle.size(), CURL_BLOB_NOCOPY};
    curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &blob);
  }
  CURLcode rc = curl_easy_perform(c);
  // A body cut at the cap is a response all the same.
  if (rc == CURLE_WRITE_ERROR && transfer.truncated) rc = CURLE_OK;
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  if (transfer.stopped) {
    out.failure = SendFailure::kStopped;
    out.error = "stopped";
  } else if (rc == CURLE_OK) {
    out.status = code;
    if (!out.succeeded()) out.error = "HTTP " + std::to_string(code);
  } else {
    out.failure = rc == CURLE_OPERATION_TIMEDOUT ? SendFailure::kTimeout : SendFailure::kTransfer;
    out.error = curl_easy_strerror(rc);
  }
  out.body = std::move(transfer.body);
  out.truncated = transfer.truncated;
  // A handle kept for reuse must hold no pointer into this call's memory (the pin drops its own).
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
  out.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
  return out;
}

SendOutcome CurlSender::send(const SendRequest& request) {
  auto started = std::chrono::steady_clock::now();
  SendOutcome out;
  auto url = parse_webhook_url(request.url);
  auto target = url.ok() ? pin_target(*url, resolver_, options_.allow_private_targets)
                         : Result<PinnedTarget>(url.error());
  if (!url.ok() || !target.ok()) {
    out.failure = url.ok() ? SendFailure::kAddress : SendFailure::kUrl;
    out.error = target.error().message;
  } else {
    SendRequest bounded = request;
    if (bounded.connect_timeout_ms == 0) bounded.connect_timeout_ms = options_.connect_timeout_ms;
    if (bounded.timeout_ms == 0) bounded.timeout_ms = options_.timeout_ms;
    out = send_to(bounded, &*target, options_.ca_bundle);
  }
  // The resolution and the check count too.
  out.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
  return out;
}

}  // namespace parley
