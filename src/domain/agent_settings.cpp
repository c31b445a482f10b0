#include "domain/agent_settings.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/json.h"
#include "domain/contacts.h"
#include "domain/setting_shapes.h"
#include "domain/tool_settings.h"
#include "domain/widget_rules.h"
#include "model/agent_settings.h"
#include "text/analyzer.h"
#include "text/tokenizer.h"

namespace parley {

namespace {
enum class Kind { kBool, kString, kCount, kNumber, kObject, kArray };

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
    Setting{"messagesPerVisitor", Kind::kCount},   Setting{"language", Kind::kString},
    Setting{"synonyms", Kind::kArray},            Setting{"answerThreshold", Kind::kNumber},
    Setting{"knowledgeRefresh", Kind::kString},   Setting{"mcpServers", Kind::kArray},
    Setting{"webSearch", Kind::kObject},
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
    case Kind::kNumber: return v.IsNumber();
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
    case Kind::kNumber: return "a number";
    case Kind::kObject: return "an object";
    case Kind::kArray: return "an array";
  }
  return "";
}

// Synonym groups at most, terms per group at most, and characters per term at most.
constexpr size_t kMaxSynonymGroups = 500;
constexpr size_t kMaxSynonymTerms = 20;
constexpr size_t kMaxSynonymTermLength = 100;

// The rules of the knowledge settings beyond their JSON kind.
Result<void> check_knowledge_setting(const std::string& name, const rapidjson::Value& v) {
  if (name == "language") {
    std::string code(v.GetString(), v.GetStringLength());
    if (!Analyzer::supported_language(code)) {
      return ApiError::invalid("Setting 'language' must be one of: " + Analyzer::supported_languages() + ".");
    }
  } else if (name == "knowledgeRefresh") {
    if (!parse_knowledge_refresh(std::string_view(v.GetString(), v.GetStringLength())))
      return ApiError::invalid("Setting 'knowledgeRefresh' must be off, daily or weekly.");
  } else if (name == "answerThreshold") {
    double t = v.GetDouble();
    if (!(t >= 0.0 && t <= 1.0)) return ApiError::invalid("Setting 'answerThreshold' must be between 0 and 1.");
  } else if (name == "synonyms") {
    if (v.Size() > kMaxSynonymGroups) {
      return ApiError::invalid("Setting 'synonyms' may hold at most " + std::to_string(kMaxSynonymGroups) + " groups.");
    }
    for (rapidjson::SizeType g = 0; g < v.Size(); ++g) {
      const auto& group = v[g];
      std::string at = "synonyms[" + std::to_string(g) + "]";
      if (!group.IsArray() || group.Size() < 2 || group.Size() > kMaxSynonymTerms) {
        return ApiError::invalid("Setting '" + at + "' must be an array of 2 to " + std::to_string(kMaxSynonymTerms) +
                                 " terms.");
      }
      for (rapidjson::SizeType t = 0; t < group.Size(); ++t) {
        const auto& term = group[t];
        std::string term_at = at + "[" + std::to_string(t) + "]";
        if (!term.IsString() || !has_token(std::string_view(term.GetString(), term.GetStringLength())) ||
            utf8_length(std::string_view(term.GetString(), term.GetStringLength())) > kMaxSynonymTermLength) {
          return ApiError::invalid("Setting '" + term_at + "' must be a word or phrase of at most " +
                                   std::to_string(kMaxSynonymTermLength) + " characters.");
        }
      }
    }
  }
  return ok_result();
}

}  // namespace

bool is_web_url(std::string_view url) {
  if (url.find_first_of(" \t\r\n") != std::string_view::npos) return false;
  for (std::string_view scheme : {"https://", "http://"}) {
    if (url.size() <= scheme.size()) continue;
    bool same = true;
    for (size_t i = 0; i < scheme.size() && same; ++i)
      same = std::tolower(static_cast<unsigned char>(url[i])) == scheme[i];
    if (same) return true;
  }
  return false;
}

namespace {
std::string_view text_of(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// A string member of an object item of a setting's array, present and non-empty (a URL: http or https).
Result<void> check_item_text(const rapidjson::Value& item, std::string_view member, const std::string& at, bool url) {
  auto m = item.FindMember(rapidjson::StringRef(member.data(), member.size()));
  if (m == item.MemberEnd() || !m->value.IsString() || m->value.GetStringLength() == 0 ||
      (url && !is_web_url(text_of(m->value)))) {
    return ApiError::invalid("Setting '" + at + "." + std::string(member) + "' must be " +
                             (url ? "an http or https URL." : "a non-empty string."));
  }
  return ok_result();
}

// The rules of the settings whose values are not free-form, beyond their JSON kind: the engine's
// name, the hand-off address, the allowed domains, the offers' names and links, the provider's URL.
Result<void> check_value_setting(const std::string& name, const rapidjson::Value& v) {
  if (name == "engine") {
    if (text_of(v) != "retrieval" && text_of(v) != "openai")
      return ApiError::invalid("Setting 'engine' must be retrieval or openai.");
  } else if (name == "handoffEmail") {
    if (!is_valid_email(text_of(v))) return ApiError::invalid("Setting 'handoffEmail' must be an email address.");
  } else if (name == "allowedDomains") {
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      if (!v[i].IsString() || !is_domain_entry(text_of(v[i]))) {
        return ApiError::invalid("Setting 'allowedDomains[" + std::to_string(i) +
                                 "]' must be a domain such as example.com.");
      }
    }
  } else if (name == "buttons" || name == "products") {
    const std::string_view label = name == "buttons" ? "label" : "name";
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      std::string at = name + "[" + std::to_string(i) + "]";
      if (!v[i].IsObject()) return ApiError::invalid("Setting '" + at + "' must be an object.");
      PARLEY_TRY(check_item_text(v[i], label, at, false));
      PARLEY_TRY(check_item_text(v[i], "url", at, true));
      // A product's image is shown in the widget and in transcripts: the same check as a link,
      // so a javascript: or data: address is never stored.
      auto image = v[i].FindMember("image");
      if (name == "products" && image != v[i].MemberEnd() && !image->value.IsNull()) {
        PARLEY_TRY(check_item_text(v[i], "image", at, true));
      }
    }
  } else if (name == "llm") {
    auto base = v.FindMember("baseUrl");
    if (base != v.MemberEnd() && !base->value.IsNull() && (!base->value.IsString() || !is_web_url(text_of(base->value))))
      return ApiError::invalid("Setting 'llm.baseUrl' must be an http or https URL.");
  }
  return ok_result();
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

}  // namespace

std::string secret_destination(std::string_view url) {
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::string(url);
  std::string scheme(url.substr(0, scheme_end));
  std::string_view rest = url.substr(scheme_end + 3);
  size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view target = rest.substr(authority_end);
  target = target.substr(0, target.find('#'));
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  std::string out = scheme + "://" + std::string(authority);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  scheme = out.substr(0, scheme_end);
  size_t host_end = authority.rfind(']');  // an IPv6 literal's colons are not a port
  bool has_port = authority.find(':', host_end == std::string_view::npos ? 0 : host_end) != std::string_view::npos;
  if (!has_port) out += scheme == "http" ? ":80" : scheme == "https" ? ":443" : "";
  if (target.empty() || target.front() != '/') out += '/';
  out += target;
  return out;
}

namespace {

std::string method_of(const rapidjson::Value& action) {
  std::string method(string_member(action, "method"));
  if (method.empty()) method = "GET";
  for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return method;
}

// A secret shown redacted may be written back as the marker only while it still goes exactly
// where its owner sent it: the same scheme, host, port, path and query (and, for an action, the
// same method). An editor who changes any of them must type the secret, or the stored one would
// be handed to a server, or another endpoint of the same gateway, of the editor's choosing.
Result<void> same_destination(const rapidjson::Value& stored, const rapidjson::Value& updated,
                              const char* url_member, const std::string& secret, const std::string& url) {
  if (secret_destination(string_member(stored, url_member)) ==
      secret_destination(string_member(updated, url_member))) {
    return ok_result();
  }
  return ApiError::invalid(
      "'" + secret + "' must be given again when '" + url +
      "' changes: a stored secret is only kept for the address it was set for.");
}

Result<void> same_action_method(const rapidjson::Value& stored, const rapidjson::Value& updated,
                                const std::string& secret, const std::string& method) {
  if (method_of(stored) == method_of(updated)) return ok_result();
  return ApiError::invalid(
      "'" + secret + "' must be given again when '" + method +
      "' changes: a stored secret is only kept for the request it was set for.");
}

// An `apiActions` update whose header values are the redaction marker keeps the stored values
// of the action of the same name (headers usually carry the action's credentials), as long as the
// action's URL and method are unchanged.
Result<void> keep_redacted_headers(const Result<rapidjson::Document>& current, rapidjson::Value& actions,
                                   rapidjson::Document::AllocatorType& alloc) {
  const rapidjson::Value* stored_actions = nullptr;
  if (current.ok() && current->IsObject()) {
    auto a = current->FindMember("apiActions");
    if (a != current->MemberEnd()) stored_actions = &a->value;
  }
  for (rapidjson::SizeType i = 0; i < actions.Size(); ++i) {
    auto& action = actions[i];
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
      std::string at = "apiActions[" + std::to_string(i) + "]";
      std::string secret =
          at + ".headers." + std::string(h->name.GetString(), h->name.GetStringLength());
      auto old = stored_headers ? stored_headers->FindMember(h->name)
                                : rapidjson::Value::ConstMemberIterator();
      if (!stored_headers || old == stored_headers->MemberEnd()) {
        // The marker would go out as the header's value: refused, as for an MCP server's.
        return ApiError::invalid("'" + secret + "' has no stored value to keep: give the secret.");
      }
      PARLEY_TRY(same_destination(*stored, action, "url", secret, at + ".url"));
      PARLEY_TRY(same_action_method(*stored, action, secret, at + ".method"));
      h->value.CopyFrom(old->value, alloc);
    }
  }
  return ok_result();
}

// An `llm` update whose apiKey is the redaction marker keeps the stored key, as long as
// `baseUrl` is unchanged.
Result<void> keep_redacted_secret(const Result<rapidjson::Document>& current, const std::string& name,
                                  rapidjson::Value& value, rapidjson::Document::AllocatorType& alloc) {
  if (name == "apiActions" && value.IsArray()) return keep_redacted_headers(current, value, alloc);
  if (name != "llm" || !value.IsObject()) return ok_result();
  auto key = value.FindMember("apiKey");
  if (key == value.MemberEnd() || !is_redaction(key->value)) return ok_result();
  value.RemoveMember("apiKey");
  if (!current.ok() || !current->IsObject()) return ok_result();
  auto llm = current->FindMember("llm");
  if (llm == current->MemberEnd() || !llm->value.IsObject()) return ok_result();
  auto stored = llm->value.FindMember("apiKey");
  if (stored == llm->value.MemberEnd()) return ok_result();
  PARLEY_TRY(same_destination(llm->value, value, "baseUrl", "llm.apiKey", "llm.baseUrl"));
  value.AddMember("apiKey", rapidjson::Value(stored->value, alloc), alloc);
  return ok_result();
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
  redact_tool_secrets(doc);
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

Result<std::string> merge_agent_settings(std::string_view current_json, std::string_view update_json,
                                         const SecretSealer* sealer) {
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
    PARLEY_TRY(check_knowledge_setting(name, it->value));
    PARLEY_TRY(check_value_setting(name, it->value));
    PARLEY_TRY(check_setting_shape(name, it->value));
    PARLEY_TRY(check_tool_setting(name, it->value));
    rapidjson::Value key(name.c_str(), merged.GetAllocator());
    rapidjson::Value value(it->value, merged.GetAllocator());
    PARLEY_TRY(keep_redacted_secret(current, name, value, merged.GetAllocator()));
    if (is_tool_setting(name)) {
      PARLEY_TRY(seal_tool_secrets(current.ok() ? &*current : nullptr, name, value,
                                   merged.GetAllocator(), sealer));
    }
    merged.AddMember(key, value, merged.GetAllocator());
  }
  return to_json(merged);
}

}  // namespace parley
