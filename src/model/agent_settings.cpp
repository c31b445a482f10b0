#include "model/agent_settings.h"

#include <rapidjson/document.h>

#include <cctype>

#include "core/json.h"
#include "model/tool_settings_reader.h"

namespace parley {

namespace {
using Value = rapidjson::Value;

const Value* member(const Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::string text(const Value& v) { return {v.GetString(), v.GetStringLength()}; }

std::optional<std::string> string_of(const Value& object, const char* name) {
  const Value* v = member(object, name);
  if (v == nullptr || !v->IsString()) return std::nullopt;
  return text(*v);
}

// A string member that says nothing when empty.
std::optional<std::string> nonempty_string_of(const Value& object, const char* name) {
  auto s = string_of(object, name);
  if (s && s->empty()) return std::nullopt;
  return s;
}

std::optional<bool> bool_of(const Value& object, const char* name) {
  const Value* v = member(object, name);
  if (v == nullptr || !v->IsBool()) return std::nullopt;
  return v->GetBool();
}

bool flag(const Value& object, const char* name) { return bool_of(object, name).value_or(false); }

std::optional<int64_t> int_of(const Value& object, const char* name) {
  const Value* v = member(object, name);
  if (v == nullptr || !v->IsInt64()) return std::nullopt;
  return v->GetInt64();
}

std::optional<double> number_of(const Value& object, const char* name) {
  const Value* v = member(object, name);
  if (v == nullptr || !v->IsNumber()) return std::nullopt;
  return v->GetDouble();
}

// The string entries of the array member `name`.
std::vector<std::string> strings_of(const Value& object, const char* name) {
  std::vector<std::string> out;
  const Value* v = member(object, name);
  if (v == nullptr || !v->IsArray()) return out;
  for (const auto& s : v->GetArray())
    if (s.IsString()) out.push_back(text(s));
  return out;
}

// Keywords that replace the defaults only when given as a non-empty array.
std::optional<std::vector<std::string>> keywords_of(const Value& object) {
  const Value* v = member(object, "keywords");
  if (v == nullptr || !v->IsArray() || v->Empty()) return std::nullopt;
  return strings_of(object, "keywords");
}

// The object entries of the array member `name`.
template <typename Read>
auto objects_of(const Value& object, const char* name, Read&& read) {
  std::vector<decltype(read(object))> out;
  const Value* v = member(object, name);
  if (v == nullptr || !v->IsArray()) return out;
  for (const auto& item : v->GetArray())
    if (item.IsObject()) out.push_back(read(item));
  return out;
}

ReplySettings reply_of(const Value& doc) {
  ReplySettings s;
  s.show_sources = flag(doc, "showSources");
  s.follow_ups = flag(doc, "followUps");
  s.save_contact_details = flag(doc, "saveContactDetails");
  if (auto fallback = nonempty_string_of(doc, "fallbackMessage")) s.fallback_message = *fallback;
  if (auto cap = int_of(doc, "monthlyMessageCap"); cap && *cap >= 0) s.monthly_message_cap = cap;
  if (auto engine = string_of(doc, "engine")) s.engine = *engine;
  return s;
}

// Every entry of the array member `fields`, with its id and label when it has them.
std::vector<FormFieldSetting> fields_of(const Value& object) {
  std::vector<FormFieldSetting> out;
  const Value* fields = member(object, "fields");
  if (fields == nullptr || !fields->IsArray()) return out;
  for (const auto& field : fields->GetArray())
    out.push_back({string_of(field, "id"), string_of(field, "label")});
  return out;
}

FormSetting form_of(const Value& v) {
  FormSetting f;
  f.id = string_of(v, "id");
  f.name = string_of(v, "name");
  f.submit_label = string_of(v, "submitLabel");
  f.keywords = strings_of(v, "keywords");
  f.fields = fields_of(v);
  if (const Value* fields = member(v, "fields"); fields != nullptr && fields->IsArray())
    f.fields_json = to_json(*fields);
  return f;
}

LeadFormSetting lead_form_of(const Value& v) {
  return {string_of(v, "message"), strings_of(v, "fields"), fields_of(v), string_of(v, "formId"),
          keywords_of(v)};
}

// "HH:MM" as minutes after midnight, or -1.
int minutes_of(const Value& v) {
  if (!v.IsString() || v.GetStringLength() != 5) return -1;
  const char* s = v.GetString();
  if (!std::isdigit(s[0]) || !std::isdigit(s[1]) || s[2] != ':' || !std::isdigit(s[3]) ||
      !std::isdigit(s[4]))
    return -1;
  int h = (s[0] - '0') * 10 + (s[1] - '0'), m = (s[3] - '0') * 10 + (s[4] - '0');
  if (h > 24 || m > 59 || h * 60 + m > 24 * 60) return -1;
  return h * 60 + m;
}

BookingSetting booking_of(const Value& v) {
  static constexpr std::array<const char*, 7> kDayNames = {"sun", "mon", "tue", "wed",
                                                           "thu", "fri", "sat"};
  BookingSetting b;
  b.provider = string_of(v, "provider");
  b.event_title = string_of(v, "eventTitle");
  b.event_length = int_of(v, "eventLength");
  b.time_zone = string_of(v, "timeZone");
  b.days_ahead = int_of(v, "daysAhead");
  b.keywords = keywords_of(v);
  const Value* availability = member(v, "availability");
  for (size_t day = 0; day < kDayNames.size(); ++day) {
    const Value* windows = availability ? member(*availability, kDayNames[day]) : nullptr;
    if (windows == nullptr || !windows->IsArray()) continue;
    for (const auto& w : windows->GetArray()) {
      if (b.availability[day].size() == kMaxBookingWindowsADay) break;
      if (!w.IsArray() || w.Size() != 2) continue;
      int from = minutes_of(w[0]), to = minutes_of(w[1]);
      if (from >= 0 && to > from) b.availability[day].push_back({from, to});
    }
  }
  return b;
}

KnowledgeSettings knowledge_of(const Value& doc) {
  KnowledgeSettings k;
  if (auto language = nonempty_string_of(doc, "language")) k.language = *language;
  if (auto refresh = nonempty_string_of(doc, "knowledgeRefresh"))
    k.refresh = parse_knowledge_refresh(*refresh).value_or(KnowledgeRefresh::kOff);
  if (auto threshold = number_of(doc, "answerThreshold"); threshold && *threshold >= 0 && *threshold <= 1)
    k.answer_threshold = *threshold;
  if (const Value* groups = member(doc, "synonyms"); groups && groups->IsArray()) {
    for (const auto& group : groups->GetArray()) {
      if (!group.IsArray()) continue;
      std::vector<std::string> terms;
      for (const auto& t : group.GetArray())
        if (t.IsString() && t.GetStringLength() > 0) terms.push_back(text(t));
      if (terms.size() >= 2) k.synonyms.push_back(std::move(terms));
    }
  }
  return k;
}

bool has_line_break(std::string_view s) {
  return s.find_first_of("\r\n") != std::string_view::npos;
}

// The well-formed entries of `apiActions`; the others are skipped.
std::vector<ApiAction> api_actions_of(const Value& doc) {
  std::vector<ApiAction> out;
  const Value* list = member(doc, "apiActions");
  if (list == nullptr || !list->IsArray()) return out;
  for (const auto& item : list->GetArray()) {
    if (!item.IsObject()) continue;
    ApiAction a;
    a.name = string_of(item, "name").value_or("");
    a.description = string_of(item, "description").value_or("");
    a.url = string_of(item, "url").value_or("");
    std::string method = string_of(item, "method").value_or("");
    if (!method.empty()) a.method = method;
    for (char& c : a.method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (!valid_action_name(a.name) || a.url.empty()) continue;
    if (a.method != "GET" && a.method != "POST" && a.method != "PUT" && a.method != "PATCH" &&
        a.method != "DELETE")
      continue;
    if (const Value* params = member(item, "parameters"); params && params->IsArray()) {
      for (const auto& p : params->GetArray()) {
        std::string name = string_of(p, "name").value_or("");
        if (!p.IsObject() || !valid_action_name(name)) continue;
        a.parameters.push_back(
            {std::move(name), string_of(p, "description").value_or(""), flag(p, "required")});
      }
    }
    if (const Value* headers = member(item, "headers"); headers && headers->IsObject()) {
      for (auto h = headers->MemberBegin(); h != headers->MemberEnd(); ++h) {
        if (!h->value.IsString()) continue;
        std::string name = text(h->name), value = text(h->value);
        if (name.empty() || has_line_break(name) || has_line_break(value) ||
            name.find(':') != std::string::npos)
          continue;
        a.headers.emplace_back(std::move(name), std::move(value));
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}
}  // namespace

bool valid_action_name(std::string_view name) {
  if (name.empty() || name.size() > 50) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  return true;
}

const std::shared_ptr<const AgentSettings>& default_agent_settings() {
  static const auto* const kDefaults =
      new std::shared_ptr<const AgentSettings>(std::make_shared<const AgentSettings>());
  return *kDefaults;
}

std::optional<KnowledgeRefresh> parse_knowledge_refresh(std::string_view value) {
  if (value == "off") return KnowledgeRefresh::kOff;
  if (value == "daily") return KnowledgeRefresh::kDaily;
  if (value == "weekly") return KnowledgeRefresh::kWeekly;
  return std::nullopt;
}

AgentSettings parse_agent_settings(std::string_view settings_json) {
  AgentSettings s;
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return s;
  s.reply = reply_of(doc);
  s.knowledge = knowledge_of(doc);
  s.instructions = string_of(doc, "instructions").value_or("");
  s.topic_analysis = flag(doc, "topicAnalysis");
  if (const Value* llm = member(doc, "llm"); llm && llm->IsObject()) {
    s.llm = {string_of(*llm, "baseUrl").value_or(""), string_of(*llm, "model").value_or(""),
             string_of(*llm, "apiKey").value_or(""), string_of(*llm, "embeddingModel").value_or("")};
  }
  s.handoff = {nonempty_string_of(doc, "handoffEmail"), flag(doc, "liveChat")};
  s.buttons = objects_of(doc, "buttons", [](const Value& v) {
    return ButtonSetting{string_of(v, "label"), string_of(v, "url"), strings_of(v, "keywords")};
  });
  s.products = objects_of(doc, "products", [](const Value& v) {
    return ProductSetting{string_of(v, "name"),      string_of(v, "url"),
                          strings_of(v, "keywords"), string_of(v, "image"),
                          number_of(v, "price"),     number_of(v, "compareAtPrice"),
                          string_of(v, "currency"),  bool_of(v, "available")};
  });
  s.forms = objects_of(doc, "forms", form_of);
  if (const Value* lead = member(doc, "leadForm"); lead && lead->IsObject())
    s.lead_form = lead_form_of(*lead);
  if (const Value* booking = member(doc, "booking"); booking && booking->IsObject())
    s.booking = booking_of(*booking);
  s.api_actions = api_actions_of(doc);
  s.widget.allowed_domains = strings_of(doc, "allowedDomains");
  s.widget.blocked_countries = strings_of(doc, "blockedCountries");
  s.widget.messages_per_visitor = int_of(doc, "messagesPerVisitor");
  s.tools = tool_settings_of(doc);
  return s;
}

}  // namespace parley
