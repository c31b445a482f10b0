#include "core/json.h"

#include <rapidjson/error/en.h>

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

std::string error_body(const ApiError& error) {
  JsonWriter w;
  w.begin_object().key("error").begin_object();
  w.key("code").string(error_code_name(error.code));
  w.key("message").string(error.message);
  w.end_object().end_object();
  return w.str();
}

Result<rapidjson::Document> parse_json_object(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(body.data(), body.size());
  if (doc.HasParseError()) {
    return ApiError::invalid(std::string("Request body is not valid JSON: ") +
                             rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                             std::to_string(doc.GetErrorOffset()) + ".");
  }
  if (!doc.IsObject()) return ApiError::invalid("Request body must be a JSON object.");
  return doc;
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

}  // namespace parley
