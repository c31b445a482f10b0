// GET and POST /api/v1/agents/{agentId}/sources, DELETE /api/v1/agents/{agentId}/sources/{sourceId}.
#include "http/responses.h"
#include "api/routes.h"
#include "store/services.h"
#include "domain/sources.h"
#include "views/source_json.h"

namespace parley {

namespace {
Result<Response> list_sources_handler(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto listing, list_sources(c, call.account_id(), call.param(0)));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& s : listing.sources) write_source_json(w, s);
  w.end_array();
  w.key("training");
  write_training_json(w, listing.training);
  w.key("characters").begin_object();
  w.key("used").integer(listing.characters_used);
  w.key("limit").integer(listing.characters_limit);
  w.end_object().end_object();
  return json_response(200, w);
}

// The body of POST: only text snippets and Q&A pairs; the other types come from the dashboard.
Result<NewSource> parse_new_source(const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(req));
  FieldReader f(doc);
  NewSource n;
  PARLEY_ASSIGN_OR_RETURN(n.type, f.required_string("type"));
  if (n.type == "website" || n.type == "file" || n.type == "workspace")
    return ApiError::invalid("'type' " + n.type + " cannot be added through the API; add it in the dashboard.");
  if (n.type == "text") {
    PARLEY_ASSIGN_OR_RETURN(n.title, f.optional_string("title", kMaxTitleChars));
    PARLEY_ASSIGN_OR_RETURN(n.content, f.optional_string("content"));
  } else if (n.type == "qa") {
    PARLEY_ASSIGN_OR_RETURN(n.question, f.optional_string("question"));
    PARLEY_ASSIGN_OR_RETURN(n.answer, f.optional_string("answer"));
  } else {
    return ApiError::invalid("'type' must be text or qa.");
  }
  PARLEY_TRY(validate_new_source(n));
  return n;
}

Result<Response> add_source_handler(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto n, parse_new_source(call.req));
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_ASSIGN_OR_RETURN(auto added, add_source(s, call.account_id(), call.param(0), n, &call.app.source_listener));
  JsonWriter w;
  write_added_source_json(w, added);
  return json_response(added.outcome == AddOutcome::kCreated ? 201 : 200, w);
}

Result<Response> delete_source_handler(ApiCall& call) {
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_ASSIGN_OR_RETURN(auto training,
                          delete_source(s, call.account_id(), call.param(0), call.param(1), &call.app.source_listener));
  JsonWriter w;
  w.begin_object();
  w.key("id").string(call.param(1));
  w.key("deleted").boolean(true);
  w.key("training");
  write_training_json(w, training);
  w.end_object();
  return json_response(200, w);
}
}  // namespace

void register_source_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/sources", Scope::kSourcesRead, Execution::kPool,
                list_sources_handler);
  add_api_route(router, app, "POST", "/api/v1/agents/{agentId}/sources", Scope::kSourcesWrite, Execution::kPool,
                add_source_handler);
  add_api_route(router, app, "DELETE", "/api/v1/agents/{agentId}/sources/{sourceId}", Scope::kSourcesWrite,
                Execution::kPool, delete_source_handler);
}

}  // namespace parley
