#include "http/responses.h"

#include <cctype>

namespace parley {

Response error_response(const ApiError& error) {
  Response r = Response::json(http_status(error.code), error_body(error));
  if (error.code == ErrorCode::kUnauthorized) r.header("WWW-Authenticate", "Bearer");
  if (error.retry_after_s > 0) r.header("Retry-After", std::to_string(error.retry_after_s));
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

Result<std::string_view> bearer_credentials(const Request& req, std::string_view what) {
  std::string_view h = req.header("Authorization");
  if (h.empty()) {
    return ApiError{ErrorCode::kUnauthorized, "Missing " + std::string(what) +
                                                  ". Send it in the Authorization header as 'Bearer <" +
                                                  std::string(what) + ">'."};
  }
  constexpr std::string_view kBearer = "bearer";
  size_t space = h.find(' ');
  bool bearer = space == kBearer.size();
  for (size_t i = 0; bearer && i < space; ++i)
    bearer = std::tolower(static_cast<unsigned char>(h[i])) == kBearer[i];
  if (!bearer) {
    return ApiError{ErrorCode::kUnauthorized, "The Authorization header must use the Bearer scheme."};
  }
  std::string_view credentials = h.substr(space + 1);
  while (!credentials.empty() && credentials.front() == ' ') credentials.remove_prefix(1);
  while (!credentials.empty() && credentials.back() == ' ') credentials.remove_suffix(1);
  return credentials;
}

}  // namespace parley
