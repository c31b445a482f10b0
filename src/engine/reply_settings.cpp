#include <rapidjson/document.h>

#include "engine/reply_engine.h"

namespace parley {

ReplySettings read_reply_settings(std::string_view settings_json) {
  ReplySettings s;
  s.fallback_message = std::string(kDefaultFallbackMessage);
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return s;
  auto flag = [&](const char* name, bool& into) {
    auto it = doc.FindMember(name);
    if (it != doc.MemberEnd() && it->value.IsBool()) into = it->value.GetBool();
  };
  flag("showSources", s.show_sources);
  flag("followUps", s.follow_ups);
  flag("saveContactDetails", s.save_contact_details);
  auto fallback = doc.FindMember("fallbackMessage");
  if (fallback != doc.MemberEnd() && fallback->value.IsString() &&
      fallback->value.GetStringLength() > 0)
    s.fallback_message.assign(fallback->value.GetString(), fallback->value.GetStringLength());
  auto cap = doc.FindMember("monthlyMessageCap");
  if (cap != doc.MemberEnd() && cap->value.IsInt64() && cap->value.GetInt64() >= 0)
    s.monthly_message_cap = cap->value.GetInt64();
  auto engine = doc.FindMember("engine");
  if (engine != doc.MemberEnd() && engine->value.IsString())
    s.engine.assign(engine->value.GetString(), engine->value.GetStringLength());
  return s;
}

}  // namespace parley
