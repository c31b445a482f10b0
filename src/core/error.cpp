#include "core/error.h"

namespace parley {

namespace {
struct Entry {
  int status;
  std::string_view name;
};

constexpr Entry entry(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidRequest: return {400, "invalid_request"};
    case ErrorCode::kUnauthorized: return {401, "unauthorized"};
    case ErrorCode::kInsufficientScope: return {403, "insufficient_scope"};
    case ErrorCode::kPlanRequired: return {403, "plan_required"};
    case ErrorCode::kMessageLimitReached: return {403, "message_limit_reached"};
    case ErrorCode::kAgentCapReached: return {403, "agent_cap_reached"};
    case ErrorCode::kAgentPrivate: return {403, "agent_private"};
    case ErrorCode::kCharacterLimitExceeded: return {403, "character_limit_exceeded"};
    case ErrorCode::kContactLimitReached: return {403, "contact_limit_reached"};
    case ErrorCode::kNotFound: return {404, "not_found"};
    case ErrorCode::kMethodNotAllowed: return {405, "method_not_allowed"};
    case ErrorCode::kConflict: return {409, "conflict"};
    case ErrorCode::kPayloadTooLarge: return {413, "payload_too_large"};
    case ErrorCode::kHeadersTooLarge: return {431, "headers_too_large"};
    case ErrorCode::kRateLimited: return {429, "rate_limited"};
    case ErrorCode::kAgentBusy: return {429, "agent_busy"};
    case ErrorCode::kInternal: return {500, "internal_error"};
    case ErrorCode::kTimeout: return {504, "timeout"};
    case ErrorCode::kWebhookLimitReached: return {400, "webhook_limit_reached"};
    case ErrorCode::kKeyLimitReached: return {400, "key_limit_reached"};
    case ErrorCode::kUnavailable: return {503, "unavailable"};
    case ErrorCode::kForbidden: return {403, "forbidden"};
    case ErrorCode::kOriginNotAllowed: return {403, "origin_not_allowed"};
    case ErrorCode::kCountryBlocked: return {403, "country_blocked"};
    case ErrorCode::kVisitorLimitReached: return {429, "visitor_message_limit_reached"};
    case ErrorCode::kIdempotencyKeyInUse: return {409, "idempotency_key_in_use"};
    case ErrorCode::kIdempotencyKeyReused: return {422, "idempotency_key_reused"};
    case ErrorCode::kDeliveryInProgress: return {409, "delivery_in_progress"};
    case ErrorCode::kDeliveryPending: return {409, "delivery_pending"};
    case ErrorCode::kWebhookDisabled: return {409, "webhook_disabled"};
    case ErrorCode::kWebhookPaused: return {409, "webhook_paused"};
  }
  return {500, "internal_error"};
}
}  // namespace

int http_status(ErrorCode code) { return entry(code).status; }
std::string_view error_code_name(ErrorCode code) { return entry(code).name; }

}  // namespace parley
