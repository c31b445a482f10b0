// Contacts: list (with single-contact search), get, create-or-update, PATCH and DELETE.
#include "domain/contacts.h"

#include "api/routes.h"
#include "domain/agents.h"
#include "http/responses.h"
#include "views/contact_json.h"
#include "views/pagination.h"

namespace parley {

namespace {
Response contact_response(int status, const ContactRecord& contact, std::string_view result = {}) {
  JsonWriter w;
  w.begin_object().key("data");
  write_contact_json(w, contact);
  if (!result.empty()) w.key("result").string(result);
  w.end_object();
  return json_response(status, w);
}

// The optional exact-match search parameters; an empty value is refused.
Result<ContactFilter> parse_filter(const Request& req) {
  ContactFilter f;
  bool found = false;
  std::string email = req.query_param("email", &found);
  if (found) {
    if (email.empty()) return ApiError::invalid("'email' must not be empty.");
    f.email = lower_ascii(email);
  }
  std::string external_id = req.query_param("external_id", &found);
  if (found) {
    if (external_id.empty()) return ApiError::invalid("'external_id' must not be empty.");
    f.external_id = std::move(external_id);
  }
  return f;
}

Result<Response> list_contacts(ApiCall& call) {
  std::string_view agent_id = call.param(0);
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(call.req, kContactList, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto filter, parse_filter(call.req));
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_TRY(get_agent(c, call.account_id(), agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, ContactRepo::list(c, agent_id, filter, q));
  return Response::json(200,
                        page_json<ContactRecord>(page, kContactList, agent_id, write_contact_json,
                                                 [](const ContactRecord& r) {
                                                   return KeysetPosition{r.created_at, r.id};
                                                 }));
}

Result<Response> upsert_contact_handler(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, json_body(call.req));
  PARLEY_ASSIGN_OR_RETURN(auto input, parse_contact_input(body));
  if (!input.external_id.value && !input.email.value) {
    return ApiError::invalid("'external_id' or 'email' is required.");
  }
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent,
                          get_agent(c, call.account_id(), call.param(0)));
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_ASSIGN_OR_RETURN(auto saved, upsert_contact(s, agent, input, "api"));
  return saved.created ? contact_response(201, saved.contact, "created")
                       : contact_response(200, saved.contact, "updated");
}

Result<Response> get_contact_handler(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto contact,
                          get_contact(c, call.account_id(), call.param(0)));
  return contact_response(200, contact);
}

Result<Response> patch_contact_handler(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, json_body(call.req));
  PARLEY_ASSIGN_OR_RETURN(auto input, parse_contact_input(body));
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_ASSIGN_OR_RETURN(auto contact, patch_contact(s, call.account_id(), call.param(0), input));
  return contact_response(200, contact);
}

Result<Response> delete_contact_handler(ApiCall& call) {
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_TRY(delete_contact(s, call.account_id(), call.param(0)));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("id").string(call.param(0));
  w.key("deleted").boolean(true);
  w.end_object().end_object();
  return json_response(200, w);
}
}  // namespace

void register_contact_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/contacts", Scope::kLeadsRead,
                Execution::kPool, list_contacts);
  add_api_route(router, app, "POST", "/api/v1/agents/{agentId}/contacts", Scope::kContactsWrite,
                Execution::kPool, upsert_contact_handler);
  add_api_route(router, app, "GET", "/api/v1/contacts/{contactId}", Scope::kLeadsRead,
                Execution::kPool, get_contact_handler);
  add_api_route(router, app, "PATCH", "/api/v1/contacts/{contactId}", Scope::kContactsWrite,
                Execution::kPool, patch_contact_handler);
  add_api_route(router, app, "DELETE", "/api/v1/contacts/{contactId}", Scope::kContactsWrite,
                Execution::kPool, delete_contact_handler);
}

}  // namespace parley
