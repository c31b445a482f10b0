// ApiError: the one error type that domain, store and API code return. Each code maps to exactly
// one HTTP status and to the spec's stable error code string; the message is for people.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace parley {

enum class ErrorCode {
  kInvalidRequest,
  kUnauthorized,
  kInsufficientScope,
  kPlanRequired,
  kMessageLimitReached,
  kAgentCapReached,
  kAgentPrivate,
  kCharacterLimitExceeded,
  kContactLimitReached,
  kNotFound,
  kMethodNotAllowed,
  kConflict,
  kPayloadTooLarge,
  kHeadersTooLarge,
  kRateLimited,
  kAgentBusy,
  kInternal,
  kTimeout,
  kWebhookLimitReached,
  kKeyLimitReached,
  kUnavailable,
  kForbidden,
  kOriginNotAllowed,
  kCountryBlocked,
  kVisitorLimitReached,
  kIdempotencyKeyInUse,
  kIdempotencyKeyReused,
  kDeliveryInProgress,  // 409: an attempt of the delivery is under way
  kDeliveryPending,     // 409: the delivery waits for its first attempt
  kWebhookDisabled,     // 409: the webhook was disabled after failing; enable it first
  kWebhookPaused,       // 409: the webhook is paused in the dashboard
};

struct ApiError {
  ErrorCode code;
  std::string message;
  // Seconds the client should wait before retrying (a Retry-After header); 0: none given.
  int64_t retry_after_s = 0;

  static ApiError invalid(std::string message) { return {ErrorCode::kInvalidRequest, std::move(message)}; }
  static ApiError not_found(std::string message) { return {ErrorCode::kNotFound, std::move(message)}; }
  static ApiError internal(std::string message) { return {ErrorCode::kInternal, std::move(message)}; }
};

// The HTTP status for a code (400, 401, 403, 404, 405, 409, 413, 422, 429, 431, 500, 503, 504).
int http_status(ErrorCode code);

// The stable string of a code as the spec names it ("invalid_request", "not_found", ...).
std::string_view error_code_name(ErrorCode code);

}  // namespace parley
