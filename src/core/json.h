// JSON helpers over RapidJSON: a small writer for building responses, and a reader that validates
// request fields and names the offending field in its error. Neither is shared across threads.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace parley {

class JsonWriter {
 public:
  JsonWriter() : writer_(buffer_) {}

  JsonWriter& begin_object() { writer_.StartObject(); return *this; }
  JsonWriter& end_object() { writer_.EndObject(); return *this; }
  JsonWriter& begin_array() { writer_.StartArray(); return *this; }
  JsonWriter& end_array() { writer_.EndArray(); return *this; }
  JsonWriter& key(std::string_view k) {
    writer_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
    return *this;
  }
  JsonWriter& string(std::string_view v) {
    writer_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    return *this;
  }
  JsonWriter& string_or_null(const std::optional<std::string>& v) {
    return v ? string(*v) : null();
  }
  JsonWriter& integer(int64_t v) { writer_.Int64(v); return *this; }
  JsonWriter& number(double v) { writer_.Double(v); return *this; }
  JsonWriter& boolean(bool v) { writer_.Bool(v); return *this; }
  JsonWriter& null() { writer_.Null(); return *this; }
  // An ISO 8601 timestamp from milliseconds since the epoch.
  JsonWriter& timestamp(int64_t ms);
  JsonWriter& timestamp_or_null(std::optional<int64_t> ms) { return ms ? timestamp(*ms) : null(); }
  // Inserts already-serialised JSON (e.g. a stored settings object) as a value.
  JsonWriter& raw(std::string_view json);
  // Copies a parsed value.
  JsonWriter& value(const rapidjson::Value& v);

  std::string str() const { return std::string(buffer_.GetString(), buffer_.GetSize()); }
  std::string_view view() const { return {buffer_.GetString(), buffer_.GetSize()}; }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
};

// Appends `s` as a JSON string: quotes, backslashes and control characters escaped, other bytes
// as they are (as JsonWriter writes them).
void append_json_string(std::string& out, std::string_view s);

// The spec's error body: {"error": {"code": ..., "message": ...}}.
std::string error_body(const ApiError& error);

// The deepest nesting of arrays and objects any parse below accepts. RapidJSON's parser, its
// writer and its destructor recurse once per level, so depth is what a hostile text attacks.
inline constexpr int kMaxJsonDepth = 64;

// Parses a request body that must be a JSON object.
Result<rapidjson::Document> parse_json_object(std::string_view body);

// Parses any JSON value from text that comes from outside the server (a provider's stream, the
// arguments a model wrote for a tool). Text nested deeper than kMaxJsonDepth or not valid JSON is
// an error; the message says only what was wrong, never quotes the text.
Result<rapidjson::Document> parse_json_value(std::string_view text);

// The string member `name` of `object`; empty when `object` is not an object, has no such member,
// or the member is not a string. The view points into `object`.
std::string_view string_member(const rapidjson::Value& object, const char* name);

// Serialises a parsed value back to compact JSON.
std::string to_json(const rapidjson::Value& v);

// Reads typed fields from a JSON object, refusing wrong types with a message naming the field.
// Absent and null are told apart: optional_* return nothing for both, `has`/`is_null` tell which.
class FieldReader {
 public:
  explicit FieldReader(const rapidjson::Value& object) : object_(object) {}

  bool has(std::string_view field) const;
  bool is_null(std::string_view field) const;
  const rapidjson::Value* get(std::string_view field) const;

  // A string of at most max_chars Unicode code points (0 = no limit).
  Result<std::string> required_string(std::string_view field, size_t max_chars = 0) const;
  Result<std::optional<std::string>> optional_string(std::string_view field,
                                                     size_t max_chars = 0) const;
  Result<std::optional<bool>> optional_bool(std::string_view field) const;

  // Refuses members other than `allowed` (comma-free list of names).
  Result<void> only(std::initializer_list<std::string_view> allowed) const;

 private:
  const rapidjson::Value& object_;
};

// Number of Unicode code points in valid UTF-8 (invalid bytes count one each).
size_t utf8_length(std::string_view s);

// True when the text is empty or only ASCII white space (how required text fields are checked).
bool is_blank(std::string_view s);

}  // namespace parley
