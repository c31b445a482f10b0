// POST /console/v1/agents/{agentId}/llm-test: the agent settings' "Test connection". One small
// call to the provider the agent would use (engine/llm_check.h), with the `llm` values a team
// member has typed but not saved laid over the stored ones (domain/llm_check.h); owners and admins
// only, as they alone may point an agent at a provider. It changes nothing, so nothing is audited.
// The answer waits for the provider without holding a thread (Response::later).
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/llm_check.h"
#include "engine/llm_check.h"
#include "http/responses.h"
#include "views/llm_check_json.h"

namespace parley {

namespace {
constexpr size_t kMaxLlmFieldChars = 2000;

// One member of the body's `llm` object: a string, or absent/null (the stored value).
Result<std::optional<std::string>> edit_of(const rapidjson::Value& llm, const char* name) {
  auto m = llm.FindMember(name);
  if (m == llm.MemberEnd() || m->value.IsNull()) return std::optional<std::string>();
  const std::string field = std::string("'llm.") + name + "'";
  if (!m->value.IsString()) return ApiError::invalid(field + " must be a string.");
  std::string value(m->value.GetString(), m->value.GetStringLength());
  if (utf8_length(value) > kMaxLlmFieldChars)
    return ApiError::invalid(field + " must be at most " + std::to_string(kMaxLlmFieldChars) +
                             " characters.");
  return std::optional<std::string>(std::move(value));
}

// The body is optional: {} or none tests the saved settings; {"llm": {baseUrl?, model?,
// apiKey?}} tests the form as typed.
Result<LlmCheckEdits> edits_of(const Request& req) {
  LlmCheckEdits edits;
  if (req.body.empty()) return edits;
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(req));
  FieldReader f(doc);
  PARLEY_TRY(f.only({"llm"}));
  const rapidjson::Value* llm = f.get("llm");
  if (llm == nullptr || llm->IsNull()) return edits;
  if (!llm->IsObject()) return ApiError::invalid("'llm' must be an object.");
  for (auto m = llm->MemberBegin(); m != llm->MemberEnd(); ++m) {
    std::string_view name(m->name.GetString(), m->name.GetStringLength());
    if (name != "baseUrl" && name != "model" && name != "apiKey")
      return ApiError::invalid("'llm." + std::string(name) + "' is not a known field.");
  }
  PARLEY_ASSIGN_OR_RETURN(edits.base_url, edit_of(*llm, "baseUrl"));
  PARLEY_ASSIGN_OR_RETURN(edits.model, edit_of(*llm, "model"));
  PARLEY_ASSIGN_OR_RETURN(edits.api_key, edit_of(*llm, "apiKey"));
  return edits;
}

Result<Response> test(ConsoleCall& call) {
  if (call.app.llm_check == nullptr)
    return ApiError{ErrorCode::kUnavailable, "Testing a language model is off on this server."};
  PARLEY_ASSIGN_OR_RETURN(auto edits, edits_of(call.req));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto llm,
                          llm_settings_to_check(c, call.account_id(), call.param(0), edits));
  const LlmCheckOptions& options = *call.app.llm_check;
  return Response::later([llm = std::move(llm),
                          &options](const std::shared_ptr<Responder>& responder) {
    start_llm_check(llm, options, [responder](LlmCheck check) {
      if (!responder->claim()) return;
      responder->send(data_response(200, [&](JsonWriter& w) { write_llm_check_json(w, check); }));
    });
  });
}
}  // namespace

void register_console_llm_check_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/llm-test", Role::kAdmin,
                    Execution::kPool, test);
}

}  // namespace parley
