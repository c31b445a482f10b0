#include "api/responses.h"

#include <cctype>

namespace parley {

Response error_response(const ApiError& error) {
  Response r = Response::json(http_status(error.code), error_body(error));
  if (error.code == ErrorCode::kUnauthorized) r.header("WWW-Authenticate", "Bearer");
  return r;
}

Response json_response(int status, const JsonWriter& body) { return Response::json(status, body.str()); }

Result<rapidjson::Document> json_body(const Request& req) {
  std::string_view ct = req.header("Content-Type");
  std::string media;
  for (char c : ct.substr(0, ct.find(';'))) {
    if (c != ' ' && c != '\t') media.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (media != "application/json") {
    return ApiError::invalid("Content-Type must be application/json.");
  }
  if (req.body.empty()) return ApiError::invalid("Request body must be a JSON object.");
  return parse_json_object(req.body);
}

}  // namespace parley
