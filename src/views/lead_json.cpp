#include "views/lead_json.h"

namespace parley {

void write_lead_json(JsonWriter& w, const LeadRecord& l, const FormLabels& labels) {
  w.begin_object();
  w.key("id").string(l.id);
  w.key("email").string_or_null(l.email);
  w.key("phone").string_or_null(l.phone);
  w.key("name").string_or_null(l.name);
  w.key("customFields").begin_array();
  rapidjson::Document fields;
  fields.Parse(l.custom_fields.data(), l.custom_fields.size());
  if (!fields.HasParseError() && fields.IsArray()) {
    for (const auto& f : fields.GetArray()) {
      if (!f.IsObject() || !f.HasMember("id") || !f["id"].IsString()) continue;
      std::string_view id(f["id"].GetString(), f["id"].GetStringLength());
      w.begin_object();
      w.key("id").string(id);
      w.key("label").string_or_null(labels.label(l.form_id, id));
      w.key("value");
      if (f.HasMember("value"))
        w.value(f["value"]);
      else
        w.null();
      w.end_object();
    }
  }
  w.end_array();
  w.key("source").string(l.source);
  w.key("conversationId").string_or_null(l.conversation_id);
  w.key("collectedAt").timestamp(l.collected_at);
  w.key("lastSeenAt").timestamp(l.last_seen_at);
  w.key("submissionCount").integer(l.submission_count);
  w.end_object();
}

}  // namespace parley
