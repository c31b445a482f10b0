// Errors of the OpenAI-compatible front (/openai/v1) in OpenAI's shape:
// {"error": {"message", "type", "param", "code"}}, with the status Parley gives the same error
// (docs/decisions/openai-compatible.md has the table): 400 invalid_request_error naming `param`,
// 401 invalid_api_key, 403 permission_error / insufficient_quota, 404 model_not_found, 429
// rate_limit_exceeded or agent_busy with Retry-After, 5xx server_error. Stateless.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"
#include "http/message.h"

namespace parley {

// A refusal that names the request field at fault (`param`, e.g. "messages[2].content") and
// OpenAI's code for it ("unsupported_parameter", "invalid_value", "missing_required_parameter").
struct OpenAiFault {
  ApiError error;
  std::string param;
  std::string code;
};

// The body for `error`; `param` and `code` empty: null param, the code the error's kind maps to.
std::string openai_error_body(const ApiError& error, std::string_view param = {},
                              std::string_view code = {});

// The whole response: status, body, WWW-Authenticate on 401, Retry-After when the error has one.
// Usable as the gate chain's ErrorWriter (api/api_context.h).
Response openai_error_response(const ApiError& error);
Response openai_error_response(const OpenAiFault& fault);

// 404 model_not_found naming `model`, for a model that is no agent of the key's account.
OpenAiFault unknown_model(std::string_view model);

}  // namespace parley
