#include "net/http_sender.h"

#include <cctype>
#include <chrono>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>

#include "core/log.h"
#include "net/outbound.h"

namespace parley {

namespace {
std::optional<std::string> read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}
}  // namespace

std::optional<std::string> SendOutcome::header(std::string_view name) const {
  for (const auto& [n, value] : headers)
    if (same_name(n, name)) return value;
  return std::nullopt;
}

Result<std::string> read_ca_bundle(const std::string& extra_ca_file) {
  if (extra_ca_file.empty()) return std::string();
  auto extra = read_text(extra_ca_file);
  if (!extra) return ApiError::invalid("Cannot read the CA file " + extra_ca_file + ".");
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
  if (on_outbound_loop()) {
    // Blocking here would stop the loop that is to answer it.
    log_error("a blocking HTTP call was made on the outbound loop");
    SendOutcome out;
    out.failure = SendFailure::kTransfer;
    out.error = "a blocking call on the outbound loop";
    return out;
  }
  std::promise<SendOutcome> done;
  std::future<SendOutcome> outcome = done.get_future();
  TransferCall call;
  call.request = request;
  if (target != nullptr) call.pin = *target;
  call.ca_bundle = ca_bundle;
  call.done = [&done](SendOutcome out) { done.set_value(std::move(out)); };
  start_transfer(std::move(call));
  return outcome.get();
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
