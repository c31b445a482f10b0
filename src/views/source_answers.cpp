#include "views/source_answers.h"

#include "domain/sources.h"
#include "http/responses.h"
#include "views/source_json.h"

namespace parley {

Result<Response> sources_listing(Database& db, std::string_view account_id, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, db.read());
  PARLEY_ASSIGN_OR_RETURN(auto listing, list_sources(c, account_id, agent_id));
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

namespace {
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
}  // namespace

Result<Response> add_source_from(Services s, SourceListener* listener, std::string_view account_id,
                                 std::string_view agent_id, const Request& req) {
  PARLEY_ASSIGN_OR_RETURN(auto n, parse_new_source(req));
  PARLEY_ASSIGN_OR_RETURN(auto added, add_source(s, account_id, agent_id, n, listener));
  JsonWriter w;
  write_added_source_json(w, added);
  return json_response(added.outcome == AddOutcome::kCreated ? 201 : 200, w);
}

Result<Response> delete_source_answer(Services s, SourceListener* listener, std::string_view account_id,
                                      std::string_view agent_id, std::string_view source_id) {
  PARLEY_ASSIGN_OR_RETURN(auto training, delete_source(s, account_id, agent_id, source_id, listener));
  JsonWriter w;
  w.begin_object();
  w.key("id").string(source_id);
  w.key("deleted").boolean(true);
  w.key("training");
  write_training_json(w, training);
  w.end_object();
  return json_response(200, w);
}

}  // namespace parley
