// Building responses: JSON bodies, the spec's error shape, and request-body parsing that checks
// the content type and names what is wrong.
#pragma once

#include <rapidjson/document.h>

#include "core/json.h"
#include "core/result.h"
#include "http/message.h"

namespace parley {

Response error_response(const ApiError& error);

// The credentials of an `Authorization: Bearer <credentials>` header (scheme case-insensitive,
// surrounding spaces ignored), or the 401 naming what is missing; `what` names the credential
// in the message ("API key", "console token").
Result<std::string_view> bearer_credentials(const Request& req, std::string_view what);
Response json_response(int status, const JsonWriter& body);

// {"data": …}, the spec's envelope of one resource: `write(JsonWriter&)` writes the value.
template <class Write>
Response data_response(int status, Write&& write) {
  JsonWriter w;
  w.begin_object().key("data");
  write(w);
  w.end_object();
  return json_response(status, w);
}

// The body as a JSON object; 400 invalid_request when the content type is not JSON or the body
// is not a JSON object.
Result<rapidjson::Document> json_body(const Request& req);

}  // namespace parley
