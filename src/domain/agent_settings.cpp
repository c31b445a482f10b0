#include "domain/agent_settings.h"

#include <array>

#include "core/json.h"

namespace parley {

namespace {
enum class Kind { kBool, kString, kCount, kObject, kArray };

struct Setting {
  std::string_view name;
  Kind kind;
};

// Every setting an agent understands. Later features add theirs here.
constexpr std::array kSettings = {
    Setting{"showSources", Kind::kBool},          Setting{"followUps", Kind::kBool},
    Setting{"saveContactDetails", Kind::kBool},   Setting{"fallbackMessage", Kind::kString},
    Setting{"monthlyMessageCap", Kind::kCount},   Setting{"instructions", Kind::kString},
    Setting{"topicAnalysis", Kind::kBool},        Setting{"engine", Kind::kString},
    Setting{"llm", Kind::kObject},                Setting{"buttons", Kind::kArray},
    Setting{"products", Kind::kArray},            Setting{"forms", Kind::kArray},
    Setting{"leadForm", Kind::kObject},           Setting{"booking", Kind::kObject},
    Setting{"liveChat", Kind::kBool},             Setting{"handoffEmail", Kind::kString},
    Setting{"apiActions", Kind::kArray},          Setting{"clientActions", Kind::kArray},
    Setting{"allowedDomains", Kind::kArray},      Setting{"blockedCountries", Kind::kArray},
    Setting{"messagesPerVisitor", Kind::kCount},
};

const Setting* find_setting(std::string_view name) {
  for (const auto& s : kSettings)
    if (s.name == name) return &s;
  return nullptr;
}

bool has_kind(const rapidjson::Value& v, Kind kind) {
  switch (kind) {
    case Kind::kBool: return v.IsBool();
    case Kind::kString: return v.IsString();
    case Kind::kCount: return v.IsInt64() && v.GetInt64() >= 0;
    case Kind::kObject: return v.IsObject();
    case Kind::kArray: return v.IsArray();
  }
  return false;
}

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::kBool: return "a boolean";
    case Kind::kString: return "a string";
    case Kind::kCount: return "a non-negative integer";
    case Kind::kObject: return "an object";
    case Kind::kArray: return "an array";
  }
  return "";
}

const rapidjson::Value* find_action(const rapidjson::Value& actions, const rapidjson::Value& name) {
  if (!actions.IsArray() || !name.IsString()) return nullptr;
  for (const auto& a : actions.GetArray()) {
    if (!a.IsObject()) continue;
    auto n = a.FindMember("name");
    if (n != a.MemberEnd() && n->value == name) return &a;
  }
  return nullptr;
}

bool is_redaction(const rapidjson::Value& v) {
  return v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == kRedactedSecret;
}

// An `apiActions` update whose header values are the redaction marker keeps the stored values
// of the action of the same name (headers usually carry the action's credentials).
void keep_redacted_headers(const Result<rapidjson::Document>& current, rapidjson::Value& actions,
                           rapidjson::Document::AllocatorType& alloc) {
  const rapidjson::Value* stored_actions = nullptr;
  if (current.ok() && current->IsObject()) {
    auto it = current->FindMember("apiActions");
    if (it != current->MemberEnd()) stored_actions = &it->value;
  }
  for (auto& action : actions.GetArray()) {
    if (!action.IsObject()) continue;
    auto headers = action.FindMember("headers");
    if (headers == action.MemberEnd() || !headers->value.IsObject()) continue;
    auto name = action.FindMember("name");
    const rapidjson::Value* stored =
        stored_actions && name != action.MemberEnd() ? find_action(*stored_actions, name->value) : nullptr;
    const rapidjson::Value* stored_headers = nullptr;
    if (stored) {
      auto h = stored->FindMember("headers");
      if (h != stored->MemberEnd() && h->value.IsObject()) stored_headers = &h->value;
    }
    for (auto h = headers->value.MemberBegin(); h != headers->value.MemberEnd(); ++h) {
      if (!is_redaction(h->value)) continue;
      auto old = stored_headers ? stored_headers->FindMember(h->name) : rapidjson::Value::ConstMemberIterator();
      if (stored_headers && old != stored_headers->MemberEnd()) h->value.CopyFrom(old->value, alloc);
    }
  }
}

// An `llm` update whose apiKey is the redaction marker keeps the stored key.
void keep_redacted_secret(const Result<rapidjson::Document>& current, const std::string& name,
                          rapidjson::Value& value, rapidjson::Document::AllocatorType& alloc) {
  if (name == "apiActions" && value.IsArray()) return keep_redacted_headers(current, value, alloc);
  if (name != "llm" || !value.IsObject()) return;
  auto key = value.FindMember("apiKey");
  if (key == value.MemberEnd() || !key->value.IsString() ||
      std::string_view(key->value.GetString(), key->value.GetStringLength()) != kRedactedSecret)
    return;
  value.RemoveMember("apiKey");
  if (!current.ok() || !current->IsObject()) return;
  auto llm = current->FindMember("llm");
  if (llm == current->MemberEnd() || !llm->value.IsObject()) return;
  auto stored = llm->value.FindMember("apiKey");
  if (stored == llm->value.MemberEnd()) return;
  value.AddMember("apiKey", rapidjson::Value(stored->value, alloc), alloc);
}
}  // namespace

std::string redact_agent_settings(std::string_view settings_json) {
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return settings_json.empty() ? "{}" : std::string(settings_json);
  auto& alloc = doc.GetAllocator();
  const auto marker = [&] {
    return rapidjson::Value(kRedactedSecret.data(), static_cast<rapidjson::SizeType>(kRedactedSecret.size()),
                            alloc);
  };
  auto llm = doc.FindMember("llm");
  if (llm != doc.MemberEnd() && llm->value.IsObject()) {
    auto key = llm->value.FindMember("apiKey");
    if (key != llm->value.MemberEnd()) key->value = marker();
  }
  auto actions = doc.FindMember("apiActions");
  if (actions != doc.MemberEnd() && actions->value.IsArray()) {
    for (auto& action : actions->value.GetArray()) {
      if (!action.IsObject()) continue;
      auto headers = action.FindMember("headers");
      if (headers == action.MemberEnd() || !headers->value.IsObject()) continue;
      for (auto h = headers->value.MemberBegin(); h != headers->value.MemberEnd(); ++h) h->value = marker();
    }
  }
  return to_json(doc);
}

std::string known_agent_settings() {
  std::string out;
  for (const auto& s : kSettings) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

Result<std::string> merge_agent_settings(std::string_view current_json, std::string_view update_json) {
  PARLEY_ASSIGN_OR_RETURN(auto update, parse_json_object(update_json));
  auto current = parse_json_object(current_json.empty() ? "{}" : current_json);
  rapidjson::Document merged;
  if (current.ok()) merged.CopyFrom(*current, merged.GetAllocator());
  else merged.SetObject();
  for (auto it = update.MemberBegin(); it != update.MemberEnd(); ++it) {
    std::string name(it->name.GetString(), it->name.GetStringLength());
    const Setting* s = find_setting(name);
    if (s == nullptr) {
      return ApiError::invalid("Unknown setting '" + name + "'. Known settings: " + known_agent_settings() + ".");
    }
    merged.RemoveMember(name.c_str());
    if (it->value.IsNull()) continue;
    if (!has_kind(it->value, s->kind)) {
      return ApiError::invalid("Setting '" + name + "' must be " + std::string(kind_name(s->kind)) + ".");
    }
    rapidjson::Value key(name.c_str(), merged.GetAllocator());
    rapidjson::Value value(it->value, merged.GetAllocator());
    keep_redacted_secret(current, name, value, merged.GetAllocator());
    merged.AddMember(key, value, merged.GetAllocator());
  }
  return to_json(merged);
}

}  // namespace parley
