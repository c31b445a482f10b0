#include "domain/setting_shapes.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/time_zone.h"
#include "domain/agent_settings.h"
#include "model/agent_settings.h"

namespace parley {

namespace {

std::string_view text_of(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

ApiError refused(const std::string& at, std::string_view must) {
  return ApiError::invalid("Setting '" + at + "' must be " + std::string(must) + ".");
}

const rapidjson::Value* find(const rapidjson::Value& object, const char* member) {
  auto m = object.FindMember(member);
  return m == object.MemberEnd() || m->value.IsNull() ? nullptr : &m->value;
}

bool is_action_name(const rapidjson::Value& v) {
  return v.IsString() && valid_action_name(text_of(v));
}

// An HTTP header name (RFC 9110 token characters).
bool is_header_name(std::string_view name) {
  if (name.empty()) return false;
  constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              kSymbols.find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

Result<void> check_optional_string(const rapidjson::Value& object, const char* member,
                                   const std::string& at) {
  if (const rapidjson::Value* v = find(object, member); v != nullptr && !v->IsString())
    return refused(at + "." + member, "a string");
  return ok_result();
}

Result<void> check_whole_number(const rapidjson::Value& object, const char* member,
                                const std::string& at, int64_t low, int64_t high) {
  const rapidjson::Value* v = find(object, member);
  if (v != nullptr && !(v->IsInt64() && v->GetInt64() >= low && v->GetInt64() <= high)) {
    return refused(at + "." + member,
                   "a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  }
  return ok_result();
}

// "HH:MM", 00:00 to 24:00.
bool is_clock_time(const rapidjson::Value& v) {
  if (!v.IsString() || v.GetStringLength() != 5) return false;
  std::string_view s = text_of(v);
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!digit(s[0]) || !digit(s[1]) || s[2] != ':' || !digit(s[3]) || !digit(s[4])) return false;
  int h = (s[0] - '0') * 10 + (s[1] - '0'), m = (s[3] - '0') * 10 + (s[4] - '0');
  return m <= 59 && h * 60 + m <= 24 * 60;
}

Result<void> check_booking(const rapidjson::Value& v) {
  PARLEY_TRY(check_optional_string(v, "provider", "booking"));
  PARLEY_TRY(check_optional_string(v, "eventTitle", "booking"));
  PARLEY_TRY(check_whole_number(v, "eventLength", "booking", 5, 1440));
  PARLEY_TRY(check_whole_number(v, "daysAhead", "booking", 1, 31));
  if (const rapidjson::Value* zone = find(v, "timeZone");
      zone != nullptr && (!zone->IsString() || !is_time_zone(text_of(*zone))))
    return refused("booking.timeZone", "an IANA time zone such as Europe/Paris");
  const rapidjson::Value* availability = find(v, "availability");
  if (availability == nullptr) return ok_result();
  if (!availability->IsObject())
    return refused("booking.availability", "an object of days (mon … sun)");
  constexpr std::array<std::string_view, 7> kDays = {"sun", "mon", "tue", "wed",
                                                     "thu", "fri", "sat"};
  for (auto day = availability->MemberBegin(); day != availability->MemberEnd(); ++day) {
    std::string at = "booking.availability." + std::string(text_of(day->name));
    if (std::find(kDays.begin(), kDays.end(), text_of(day->name)) == kDays.end())
      return refused(at, "one of the days mon, tue, wed, thu, fri, sat and sun");
    if (!day->value.IsArray() || day->value.Size() > kMaxBookingWindowsADay)
      return refused(at, "an array of at most " + std::to_string(kMaxBookingWindowsADay) +
                             " [\"HH:MM\", \"HH:MM\"] windows");
    for (rapidjson::SizeType i = 0; i < day->value.Size(); ++i) {
      const auto& w = day->value[i];
      bool ok = w.IsArray() && w.Size() == 2 && is_clock_time(w[0]) && is_clock_time(w[1]) &&
                text_of(w[0]) < text_of(w[1]);
      if (!ok)
        return refused(at + "[" + std::to_string(i) + "]",
                       "a window [\"HH:MM\", \"HH:MM\"] that ends after it starts");
    }
  }
  return ok_result();
}

Result<void> check_api_action(const rapidjson::Value& a, const std::string& at) {
  if (!a.IsObject()) return refused(at, "an object");
  const rapidjson::Value* name = find(a, "name");
  if (name == nullptr || !is_action_name(*name))
    return refused(at + ".name", "1 to 50 letters, digits, _ or -");
  const rapidjson::Value* url = find(a, "url");
  if (url == nullptr || !url->IsString() || !is_web_url(text_of(*url)))
    return refused(at + ".url", "an http or https URL");
  PARLEY_TRY(check_optional_string(a, "description", at));
  if (const rapidjson::Value* method = find(a, "method"); method != nullptr) {
    std::string m = method->IsString() ? std::string(text_of(*method)) : "";
    for (char& c : m) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    if (m != "GET" && m != "POST" && m != "PUT" && m != "PATCH" && m != "DELETE")
      return refused(at + ".method", "GET, POST, PUT, PATCH or DELETE");
  }
  if (const rapidjson::Value* params = find(a, "parameters"); params != nullptr) {
    if (!params->IsArray()) return refused(at + ".parameters", "an array");
    for (rapidjson::SizeType i = 0; i < params->Size(); ++i) {
      std::string p_at = at + ".parameters[" + std::to_string(i) + "]";
      const auto& p = (*params)[i];
      if (!p.IsObject()) return refused(p_at, "an object");
      const rapidjson::Value* p_name = find(p, "name");
      if (p_name == nullptr || !is_action_name(*p_name))
        return refused(p_at + ".name", "1 to 50 letters, digits, _ or -");
      PARLEY_TRY(check_optional_string(p, "description", p_at));
      if (const rapidjson::Value* required = find(p, "required");
          required != nullptr && !required->IsBool())
        return refused(p_at + ".required", "a boolean");
    }
  }
  if (const rapidjson::Value* headers = find(a, "headers"); headers != nullptr) {
    if (!headers->IsObject())
      return refused(at + ".headers", "an object of header names and values");
    for (auto h = headers->MemberBegin(); h != headers->MemberEnd(); ++h) {
      std::string_view header = text_of(h->name);
      if (!is_header_name(header))
        return refused(at + ".headers",
                       "keyed by header names (letters, digits and !#$%&'*+-.^_`|~)");
      std::string h_at = at + ".headers." + std::string(header);
      if (!h->value.IsString() || text_of(h->value).find_first_of("\r\n") != std::string_view::npos)
        return refused(h_at, "a string on one line");
    }
  }
  return ok_result();
}

Result<void> check_items(const rapidjson::Value& list, const std::string& name,
                         Result<void> (*check)(const rapidjson::Value&, const std::string&)) {
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i)
    PARLEY_TRY(check(list[i], name + "[" + std::to_string(i) + "]"));
  return ok_result();
}

Result<void> check_form(const rapidjson::Value& f, const std::string& at) {
  if (!f.IsObject()) return refused(at, "an object");
  const rapidjson::Value* id = find(f, "id");
  if (id == nullptr || !id->IsString() || id->GetStringLength() == 0)
    return refused(at + ".id", "a non-empty string");
  PARLEY_TRY(check_optional_string(f, "name", at));
  PARLEY_TRY(check_optional_string(f, "submitLabel", at));
  if (const rapidjson::Value* fields = find(f, "fields"); fields != nullptr) {
    if (!fields->IsArray()) return refused(at + ".fields", "an array");
    for (rapidjson::SizeType i = 0; i < fields->Size(); ++i)
      if (!(*fields)[i].IsObject())
        return refused(at + ".fields[" + std::to_string(i) + "]", "an object");
  }
  return ok_result();
}

Result<void> check_lead_form(const rapidjson::Value& v) {
  PARLEY_TRY(check_optional_string(v, "message", "leadForm"));
  PARLEY_TRY(check_optional_string(v, "formId", "leadForm"));
  if (const rapidjson::Value* fields = find(v, "fields"); fields != nullptr) {
    if (!fields->IsArray()) return refused("leadForm.fields", "an array");
    for (rapidjson::SizeType i = 0; i < fields->Size(); ++i) {
      const auto& f = (*fields)[i];
      if (!f.IsString() && !f.IsObject())
        return refused("leadForm.fields[" + std::to_string(i) + "]",
                       "a field name or a field object");
    }
  }
  return ok_result();
}

Result<void> check_product_prices(const rapidjson::Value& p, const std::string& at) {
  if (!p.IsObject()) return ok_result();  // refused with its name and url (agent_settings.cpp)
  for (const char* member : {"price", "compareAtPrice"}) {
    const rapidjson::Value* v = find(p, member);
    if (v != nullptr && !(v->IsNumber() && v->GetDouble() >= 0))
      return refused(at + "." + member, "a number, 0 or more");
  }
  PARLEY_TRY(check_optional_string(p, "currency", at));
  if (const rapidjson::Value* available = find(p, "available");
      available != nullptr && !available->IsBool())
    return refused(at + ".available", "a boolean");
  return ok_result();
}

Result<void> check_country(const rapidjson::Value& v, const std::string& at) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!v.IsString() || v.GetStringLength() != 2 || !letter(v.GetString()[0]) ||
      !letter(v.GetString()[1]))
    return refused(at, "an ISO 3166 country code such as DE");
  return ok_result();
}

Result<void> check_llm(const rapidjson::Value& v) {
  for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
    std::string_view member = text_of(m->name);
    if (member != "baseUrl" && member != "model" && member != "apiKey" &&
        member != "embeddingModel")
      return ApiError::invalid("Setting 'llm' has no member '" + std::string(member) +
                               "'; it takes baseUrl, model, apiKey and embeddingModel.");
    if (!m->value.IsString() && !m->value.IsNull())
      return refused("llm." + std::string(member), "a string");
  }
  return ok_result();
}

}  // namespace

Result<void> check_setting_shape(const std::string& name, const rapidjson::Value& value) {
  if (name == "booking") return check_booking(value);
  if (name == "apiActions") return check_items(value, name, check_api_action);
  if (name == "forms") return check_items(value, name, check_form);
  if (name == "leadForm") return check_lead_form(value);
  if (name == "products") return check_items(value, name, check_product_prices);
  if (name == "blockedCountries") return check_items(value, name, check_country);
  if (name == "llm") return check_llm(value);
  return ok_result();
}

}  // namespace parley
