// POST /console/v1/login, POST /console/v1/logout, GET /console/v1/me.
#include <string>

#include "http/responses.h"
#include "console/console_json.h"
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/accounts.h"
#include "domain/member_passwords.h"
#include "views/member_json.h"

namespace parley {

namespace {
Response login(ConsoleContext& app, Request& req) {
  auto doc = json_body(req);
  if (!doc.ok()) return error_response(doc.error());
  FieldReader f(*doc);
  auto email = f.required_string("email", 254);
  if (!email.ok()) return error_response(email.error());
  auto password = f.required_string("password", kMaxPasswordLength);
  if (!password.ok()) return error_response(password.error());
  if (email->empty()) return error_response(ApiError::invalid("'email' is required."));
  if (password->empty()) return error_response(ApiError::invalid("'password' is required."));

  std::string subject = normalize_email(*email);
  // The client's address as a trusted proxy names it: behind a proxy the peer is the proxy, and
  // counting it would let one stranger's failures lock every account's owner out.
  const std::string address = app.console.client_address.of(req);
  int64_t retry_after = app.console.logins.begin(subject, address);
  if (retry_after > 0) {
    Response r = error_response(
        {ErrorCode::kRateLimited, "Too many login attempts; retry in " + std::to_string(retry_after) + " seconds."});
    r.header("Retry-After", std::to_string(retry_after));
    return r;
  }
  Services s{app.db, app.clock, app.random};
  auto session = login_member(s, subject, *password, app.console.options.session_ttl_ms);
  if (!session.ok()) return error_response(session.error());
  app.console.logins.succeeded(subject, address);

  JsonWriter w;
  w.begin_object();
  w.key("token").string(session->token);
  w.key("expiresAt").timestamp(session->expires_at);
  w.key("member");
  write_member_json(w, session->member);
  w.end_object();
  Response r = json_response(200, w);
  r.header("Cache-Control", "no-store");
  return r;
}

Result<Response> logout(ConsoleCall& call) {
  PARLEY_TRY(end_member_token(call.services, call.token));
  return Response::json(200, R"({"data":{"loggedOut":true}})");
}

Result<Response> me(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto account, get_account(call.services, call.account_id()));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("member");
  write_member_json(w, call.who.member);
  w.key("account");
  write_console_account_json(w, account);
  w.key("session").begin_object();
  w.key("kind").string(call.who.token_kind);
  w.key("expiresAt").timestamp_or_null(call.who.expires_at);
  w.end_object();
  w.end_object().end_object();
  return json_response(200, w);
}
}  // namespace

void register_console_session_routes(Router& router, ConsoleContext& app) {
  router.add("POST", "/console/v1/login", {[&app](Request& req) { return login(app, req); }, Execution::kPool});
  add_console_route(router, app, "POST", "/console/v1/logout", Role::kViewer, Execution::kPool, logout);
  add_console_route(router, app, "GET", "/console/v1/me", Role::kViewer, Execution::kPool, me);
}

}  // namespace parley
