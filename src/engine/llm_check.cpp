#include "engine/llm_check.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>

#include "core/json.h"
#include "core/log.h"
#include "engine/llm_target.h"
#include "engine/provider_call.h"
#include "net/outbound.h"

namespace parley {

namespace {
// The body of a completion is a few hundred bytes; more is read only to tell it from a page.
constexpr size_t kMaxCheckResponseBytes = size_t{64} * 1024;

// curl's failures that happen in the TLS handshake or the certificate check. The outbound client
// gives the failure as curl's text (SendOutcome::error), the same text for the same code.
bool is_tls_failure(std::string_view error) {
  static constexpr std::array kTlsCodes = {
      CURLE_SSL_CONNECT_ERROR,        CURLE_PEER_FAILED_VERIFICATION,
      CURLE_SSL_CERTPROBLEM,          CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE,       CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
      CURLE_SSL_CRL_BADFILE,          CURLE_SSL_SHUTDOWN_FAILED,
      CURLE_USE_SSL_FAILED,           CURLE_SSL_ENGINE_INITFAILED};
  return std::any_of(kTlsCodes.begin(), kTlsCodes.end(),
                     [&](CURLcode code) { return error == curl_easy_strerror(code); });
}

// Whether a provider's 404 body speaks of the model (OpenAI's `model_not_found`, Ollama's
// "model … not found", vLLM's "The model … does not exist") rather than of the address.
bool names_the_model(std::string_view body) {
  std::string lower(body.substr(0, 4096));
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("model") != std::string::npos;
}

// A 2xx body that is a chat completion: an object with a `choices` array.
bool is_completion(std::string_view body) {
  auto doc = parse_json_value(body);
  if (!doc.ok() || !doc->IsObject()) return false;
  auto choices = doc->FindMember("choices");
  return choices != doc->MemberEnd() && choices->value.IsArray();
}

LlmCheck found(std::string outcome, std::string message) {
  LlmCheck c;
  c.outcome = std::move(outcome);
  c.message = std::move(message);
  return c;
}
}  // namespace

std::string llm_check_request_body(std::string_view model) {
  JsonWriter w;
  w.begin_object().key("model").string(model).key("stream").boolean(false);
  w.key("messages").begin_array();
  w.begin_object().key("role").string("user");
  w.key("content").string("Reply with the single word OK.").end_object();
  w.end_array().end_object();
  return w.str();
}

LlmCheck classify_llm_check(const SendOutcome& sent) {
  LlmCheck c;
  c.duration_ms = sent.duration_ms;
  c.status = sent.status;
  const std::string ms = std::to_string(sent.duration_ms) + " ms";
  if (sent.status) {
    const int64_t status = *sent.status;
    if (sent.succeeded()) {
      if (is_completion(sent.body) && !sent.truncated) {
        c.outcome = "answered";
        c.message = "The model answered in " + ms + ".";
      } else {
        c.outcome = "bad_response";
        c.message = "The address answered HTTP " + std::to_string(status) +
                    ", but not with a chat completion: is it an OpenAI-compatible API?";
      }
    } else if (status == 401 || status == 403) {
      c.outcome = "unauthorized";
      c.message = "The provider refused the API key (HTTP " + std::to_string(status) + ").";
    } else if (status == 404 && names_the_model(sent.body)) {
      c.outcome = "unknown_model";
      c.message = "The provider does not know this model (HTTP 404).";
    } else if (status == 404) {
      c.outcome = "not_found";
      c.message =
          "Nothing answers chat completions at this address (HTTP 404): check the base URL.";
    } else {
      c.outcome = "http_error";
      c.message = "The provider answered HTTP " + std::to_string(status) + ".";
    }
    return c;
  }
  if (sent.failure == SendFailure::kTimeout) {
    c.outcome = "timeout";
    c.message = "The provider did not answer within " + ms + ".";
  } else if (is_tls_failure(sent.error.value_or(""))) {
    c.outcome = "tls_error";
    c.message =
        "The TLS connection failed: the provider's certificate is not trusted or the "
        "handshake failed.";
  } else {
    c.outcome = "unreachable";
    c.message = "The provider could not be reached (no connection to its address).";
  }
  return c;
}

void start_llm_check(const LlmSettings& llm, const LlmCheckOptions& options,
                     std::function<void(LlmCheck)> done) {
  auto target = llm_target(llm, options.defaults, options.guard);
  if (!target.ok()) {
    LlmCheck c = found("refused",
                       "The address is refused: it must be an https URL whose host resolves only "
                       "to public addresses.");
    c.base_url = llm.base_url;
    c.model = llm.model.empty() ? options.defaults.model : llm.model;
    return done(std::move(c));
  }
  if (target->base_url.empty() || target->model.empty()) {
    LlmCheck c = found("not_configured",
                       "No language model is configured: set the provider's base URL and model.");
    c.base_url = target->base_url;
    c.model = target->model;
    return done(std::move(c));
  }
  // The server's own provider may sit behind a private CA; an agent's own one never uses it.
  const bool own_provider = target->pin.has_value();
  TransferCall call =
      provider_transfer({completions_url(target->base_url), llm_check_request_body(target->model),
                         "application/json", target->api_key, options.timeout_ms, target->pin,
                         own_provider ? std::string() : options.defaults.ca_file});
  call.request.max_response_bytes = kMaxCheckResponseBytes;
  call.done = [base_url = target->base_url, model = target->model,
               done = std::move(done)](SendOutcome sent) {
    LlmCheck c = classify_llm_check(sent);
    c.base_url = base_url;
    c.model = model;
    log_info("llm_check", {{"outcome", std::string_view(c.outcome)},
                           {"status", c.status.value_or(0)},
                           {"duration_ms", c.duration_ms}});
    done(std::move(c));
  };
  start_transfer(std::move(call));
}

}  // namespace parley
