#include "api/openai_errors.h"

#include "core/json.h"

namespace parley {

namespace {
// OpenAI's `type` for an error of this kind.
std::string_view error_type(ErrorCode code) {
  switch (code) {
    case ErrorCode::kRateLimited:
    case ErrorCode::kAgentBusy:
      return "requests";
    case ErrorCode::kMessageLimitReached:
    case ErrorCode::kAgentCapReached:
      return "insufficient_quota";
    case ErrorCode::kInsufficientScope:
    case ErrorCode::kPlanRequired:
    case ErrorCode::kAgentPrivate:
    case ErrorCode::kForbidden:
      return "permission_error";
    default:
      return http_status(code) >= 500 ? "server_error" : "invalid_request_error";
  }
}

// OpenAI's `code` where it has one for this kind, else Parley's stable code.
std::string_view default_code(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUnauthorized:
      return "invalid_api_key";
    case ErrorCode::kRateLimited:
      return "rate_limit_exceeded";
    case ErrorCode::kNotFound:
      return "not_found";
    default:
      return error_code_name(code);
  }
}
}  // namespace

std::string openai_error_body(const ApiError& error, std::string_view param,
                              std::string_view code) {
  JsonWriter w;
  w.begin_object().key("error").begin_object();
  w.key("message").string(error.message);
  w.key("type").string(error_type(error.code));
  w.key("param");
  if (param.empty())
    w.null();
  else
    w.string(param);
  w.key("code").string(code.empty() ? default_code(error.code) : code);
  w.end_object().end_object();
  return w.str();
}

Response openai_error_response(const OpenAiFault& fault) {
  Response r = Response::json(http_status(fault.error.code),
                              openai_error_body(fault.error, fault.param, fault.code));
  if (fault.error.code == ErrorCode::kUnauthorized) r.header("WWW-Authenticate", "Bearer");
  if (fault.error.retry_after_s > 0)
    r.header("Retry-After", std::to_string(fault.error.retry_after_s));
  return r;
}

Response openai_error_response(const ApiError& error) {
  return openai_error_response(OpenAiFault{error, {}, {}});
}

OpenAiFault unknown_model(std::string_view model) {
  return {ApiError::not_found("The model '" + std::string(model) +
                              "' does not exist: a model is the id of an agent of this key's "
                              "account (GET /openai/v1/models lists them)."),
          "model", "model_not_found"};
}

}  // namespace parley
