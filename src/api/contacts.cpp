// Contacts: list (with single-contact search), get, create-or-update, PATCH and DELETE.
#include "domain/contacts.h"

#include "api/routes.h"
#include "domain/agents.h"
#include "http/responses.h"
#include "views/contact_json.h"
#include "views/list_answers.h"

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

Result<Response> list_contacts(ApiCall& call) {
  return contacts_page(call.app.db, call.account_id(), call.param(0), call.req);
}

Result<Response> upsert_contact_handler(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, json_body(call.req));
  PARLEY_ASSIGN_OR_RETURN(auto input, parse_contact_input(body));
  if (!input.external_id.value && !input.email.value) {
    return ApiError::invalid("'external_id' or 'email' is required.");
  }
  PARLEY_ASSIGN_OR_RETURN(auto agent, account_agent(call.app, call.account_id(), call.param(0)));
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_ASSIGN_OR_RETURN(auto saved, upsert_contact(s, agent->record, input, "api"));
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
