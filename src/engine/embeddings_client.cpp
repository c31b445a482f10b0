#include "engine/embeddings_client.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <future>

#include "core/json.h"
#include "core/log.h"
#include "engine/provider_call.h"

namespace parley {

namespace {
ApiError provider_failed() {
  return ApiError::internal("The embeddings provider did not give usable vectors.");
}

ApiError malformed(std::string_view what) {
  return ApiError::internal("malformed embeddings response: " + std::string(what));
}
}  // namespace

std::string embeddings_url(std::string_view base_url) {
  std::string url(base_url);
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.size() >= 3 && url.compare(url.size() - 3, 3, "/v1") == 0) return url + "/embeddings";
  return url + "/v1/embeddings";
}

std::string embeddings_request_body(const EmbeddingsRequest& request) {
  JsonWriter w;
  w.begin_object().key("model").string(request.model).key("input").begin_array();
  for (const auto& text : request.inputs) w.string(text);
  w.end_array().end_object();
  return w.str();
}

Result<Embeddings> parse_embeddings(std::string_view body, size_t inputs) {
  PARLEY_ASSIGN_OR_RETURN(rapidjson::Document doc, parse_json_value(body));
  if (!doc.IsObject()) return malformed("not an object");
  auto data = doc.FindMember("data");
  if (data == doc.MemberEnd() || !data->value.IsArray()) return malformed("no data array");
  const auto& items = data->value.GetArray();
  if (items.Size() != inputs) return malformed("not one vector per input");
  Embeddings out(inputs);
  std::vector<bool> seen(inputs, false);
  size_t dimensions = 0;
  for (rapidjson::SizeType n = 0; n < items.Size(); ++n) {
    const auto& item = items[n];
    if (!item.IsObject()) return malformed("an item is not an object");
    size_t index = n;
    if (auto i = item.FindMember("index"); i != item.MemberEnd()) {
      if (!i->value.IsUint64() || i->value.GetUint64() >= inputs) return malformed("bad index");
      index = static_cast<size_t>(i->value.GetUint64());
    }
    if (seen[index]) return malformed("an index is repeated");
    seen[index] = true;
    auto e = item.FindMember("embedding");
    if (e == item.MemberEnd() || !e->value.IsArray()) return malformed("no embedding array");
    const auto& values = e->value.GetArray();
    if (values.Empty() || values.Size() > kMaxEmbeddingDimensions)
      return malformed("bad dimension");
    if (dimensions == 0) dimensions = values.Size();
    if (values.Size() != dimensions) return malformed("vectors of different dimensions");
    std::vector<float>& v = out[index];
    v.reserve(dimensions);
    for (const auto& x : values) {
      if (!x.IsNumber()) return malformed("a value is not a number");
      double d = x.GetDouble();
      if (!std::isfinite(d) || std::fabs(d) > FLT_MAX) return malformed("a value is out of range");
      v.push_back(static_cast<float>(d));
    }
  }
  return out;
}

namespace {
Result<Embeddings> embeddings_outcome(const SendOutcome& outcome, const EmbeddingsRequest& request) {
  const auto inputs = static_cast<int64_t>(request.inputs.size());
  if (outcome.failure == SendFailure::kTimeout) {
    log_warn("embeddings_timeout", {{"timeout_ms", request.timeout_ms}, {"inputs", inputs}});
    return ApiError{ErrorCode::kTimeout, "The embeddings call took longer than its deadline."};
  }
  if (!outcome.status) {
    log_warn("embeddings_request_failed",
             {{"error", std::string_view(outcome.error.value_or(""))}});
    return provider_failed();
  }
  if (!outcome.succeeded()) {
    log_warn("embeddings_http_error", {{"status", *outcome.status}});
    return provider_failed();
  }
  if (outcome.truncated) {
    log_warn("embeddings_response_too_large", {{"inputs", inputs}});
    return provider_failed();
  }
  auto parsed = parse_embeddings(outcome.body, request.inputs.size());
  if (!parsed.ok()) {
    log_warn("embeddings_malformed", {{"error", std::string_view(parsed.error().message)}});
    return provider_failed();
  }
  return parsed;
}
}  // namespace

void EmbeddingsClient::start(const EmbeddingsRequest& request, EmbeddingsDone done) const {
  if (request.base_url.empty() || request.model.empty()) {
    return done(ApiError::internal("The embedding model is not configured (base URL and model)."));
  }
  if (request.inputs.empty()) return done(Embeddings{});
  if (request.timeout_ms <= 0) return done(ApiError{ErrorCode::kTimeout, "No time left to embed."});

  TransferCall call = provider_transfer({embeddings_url(request.base_url), embeddings_request_body(request),
                                         "application/json", request.api_key, request.timeout_ms, request.pin,
                                         request.ca_file});
  call.request.max_response_bytes = 64 * 1024 + request.inputs.size() * kEmbeddingResponseBytesPerInput;
  // Only what judging the outcome needs is kept: not the inputs.
  EmbeddingsRequest kept;
  kept.timeout_ms = request.timeout_ms;
  kept.inputs.resize(request.inputs.size());
  call.done = [kept = std::move(kept), done = std::move(done)](SendOutcome outcome) {
    done(embeddings_outcome(outcome, kept));
  };
  start_transfer(std::move(call));
}

Result<Embeddings> EmbeddingsClient::embed(const EmbeddingsRequest& request) const {
  std::promise<Result<Embeddings>> finished;
  auto outcome = finished.get_future();
  start(request, [&finished](Result<Embeddings> r) { finished.set_value(std::move(r)); });
  return outcome.get();
}

}  // namespace parley
