#include "views/llm_check_json.h"

namespace parley {

void write_llm_check_json(JsonWriter& w, const LlmCheck& check) {
  w.begin_object();
  w.key("ok").boolean(check.ok());
  w.key("outcome").string(check.outcome);
  w.key("message").string(check.message);
  w.key("status");
  if (check.status)
    w.integer(*check.status);
  else
    w.null();
  w.key("durationMs").integer(check.duration_ms);
  w.key("baseUrl").string(check.base_url);
  w.key("model").string(check.model);
  w.end_object();
}

}  // namespace parley
