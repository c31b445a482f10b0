#include "core/json.h"

#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <vector>

#include "core/swar.h"
#include "core/time_format.h"

namespace parley {

JsonWriter& JsonWriter::timestamp(int64_t ms) {
  char buf[24];
  format_timestamp_to(ms, buf);
  writer_.String(buf, 24);
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  writer_.RawValue(json.data(), json.size(), rapidjson::kObjectType);
  return *this;
}

JsonWriter& JsonWriter::value(const rapidjson::Value& v) {
  v.Accept(writer_);
  return *this;
}

namespace {
constexpr std::array<bool, 256> kEscaped = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['"'] = t['\\'] = true;
  return t;
}();
}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  size_t plain = 0;  // start of the run not yet copied
  for (size_t i = 0; i < s.size(); ++i) {
    // Skips eight clean bytes at a time; most strings have nothing to escape.
    while (i + 8 <= s.size()) {
      uint64_t w = swar::load(s.data() + i);
      if (swar::maybe_below(w, 0x20) || swar::maybe_has(w, '"') || swar::maybe_has(w, '\\')) break;
      i += 8;
    }
    if (i == s.size()) break;
    auto c = static_cast<unsigned char>(s[i]);
    if (!kEscaped[c]) continue;
    out.append(s.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out.append(escaped, sizeof escaped);
      }
    }
  }
  out.append(s.data() + plain, s.size() - plain);
  out.push_back('"');
}

std::string error_body(const ApiError& error) {
  std::string body;
  body.reserve(48 + error.message.size());
  body.append(R"({"error":{"code":)");
  append_json_string(body, error_code_name(error.code));
  body.append(R"(,"message":)");
  append_json_string(body, error.message);
  body.append("}}");
  return body;
}

namespace {
// The deepest nesting of arrays and objects in `body`, scanned without parsing so that a body
// nested deeper than the recursive parser's stack can take is refused before it is parsed.
int nesting_depth(std::string_view body) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// The first member name that appears twice in an object at any depth, if any. Parsers disagree on
// which of two equal names wins, so a body that has them is refused rather than guessed at.
std::optional<std::string> duplicate_name(const rapidjson::Value& v) {
  if (v.IsArray()) {
    for (const auto& item : v.GetArray())
      if (auto d = duplicate_name(item)) return d;
    return std::nullopt;
  }
  if (!v.IsObject()) return std::nullopt;
  std::vector<std::string_view> names;
  names.reserve(v.MemberCount());
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    names.emplace_back(it->name.GetString(), it->name.GetStringLength());
    if (auto d = duplicate_name(it->value)) return d;
  }
  std::sort(names.begin(), names.end());
  auto at = std::adjacent_find(names.begin(), names.end());
  if (at != names.end()) return std::string(*at);
  return std::nullopt;
}
}  // namespace

Result<rapidjson::Document> parse_json_object(std::string_view body) {
  if (nesting_depth(body) > kMaxJsonDepth) {
    return ApiError::invalid("Request body is nested more than " + std::to_string(kMaxJsonDepth) +
                             " levels deep.");
  }
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(body.data(), body.size());
  if (doc.HasParseError()) {
    return ApiError::invalid(std::string("Request body is not valid JSON: ") +
                             rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                             std::to_string(doc.GetErrorOffset()) + ".");
  }
  if (!doc.IsObject()) return ApiError::invalid("Request body must be a JSON object.");
  if (auto name = duplicate_name(doc)) {
    return ApiError::invalid("'" + *name + "' appears more than once in the request body.");
  }
  return doc;
}

Result<rapidjson::Document> parse_json_value(std::string_view text) {
  if (nesting_depth(text) > kMaxJsonDepth) {
    return ApiError::invalid("JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep.");
  }
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  if (doc.HasParseError()) return ApiError::invalid("Not valid JSON.");
  return doc;
}

std::string_view string_member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return {};
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::string to_json(const rapidjson::Value& v) {
  JsonWriter w;
  w.value(v);
  return w.str();
}

size_t utf8_length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

namespace {
rapidjson::Value::ConstMemberIterator find(const rapidjson::Value& o, std::string_view field) {
  return o.FindMember(rapidjson::Value(rapidjson::StringRef(field.data(), field.size())));
}
std::string quoted(std::string_view field) { return "'" + std::string(field) + "'"; }
}  // namespace

bool FieldReader::has(std::string_view field) const { return find(object_, field) != object_.MemberEnd(); }

bool FieldReader::is_null(std::string_view field) const {
  auto it = find(object_, field);
  return it != object_.MemberEnd() && it->value.IsNull();
}

const rapidjson::Value* FieldReader::get(std::string_view field) const {
  auto it = find(object_, field);
  return it == object_.MemberEnd() ? nullptr : &it->value;
}

Result<std::string> FieldReader::required_string(std::string_view field, size_t max_chars) const {
  auto v = get(field);
  if (v == nullptr || v->IsNull()) return ApiError::invalid(quoted(field) + " is required.");
  PARLEY_ASSIGN_OR_RETURN(auto s, optional_string(field, max_chars));
  return std::move(*s);
}

Result<std::optional<std::string>> FieldReader::optional_string(std::string_view field,
                                                                size_t max_chars) const {
  auto v = get(field);
  if (v == nullptr || v->IsNull()) return std::optional<std::string>();
  if (!v->IsString()) return ApiError::invalid(quoted(field) + " must be a string.");
  std::string s(v->GetString(), v->GetStringLength());
  if (max_chars > 0 && utf8_length(s) > max_chars) {
    return ApiError::invalid(quoted(field) + " must be at most " + std::to_string(max_chars) +
                             " characters.");
  }
  return std::optional<std::string>(std::move(s));
}

Result<std::optional<bool>> FieldReader::optional_bool(std::string_view field) const {
  auto v = get(field);
  if (v == nullptr || v->IsNull()) return std::optional<bool>();
  if (!v->IsBool()) return ApiError::invalid(quoted(field) + " must be a boolean.");
  return std::optional<bool>(v->GetBool());
}

Result<void> FieldReader::only(std::initializer_list<std::string_view> allowed) const {
  for (auto it = object_.MemberBegin(); it != object_.MemberEnd(); ++it) {
    std::string_view name(it->name.GetString(), it->name.GetStringLength());
    bool known = false;
    for (auto a : allowed) known = known || a == name;
    if (!known) return ApiError::invalid(quoted(name) + " is not a known field.");
  }
  return {};
}

bool is_blank(std::string_view s) {
  for (char c : s)
    if (!(c == ' ' || (c >= '\t' && c <= '\r'))) return false;
  return true;
}

}  // namespace parley
