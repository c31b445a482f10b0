// Validation of contact fields (spec: Contact input limits).
#include "domain/contacts.h"

namespace parley {

namespace {
bool is_alnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The local part: printable ASCII other than specials and spaces, dots not leading, trailing or
// doubled. Domain: dot-separated labels of letters, digits and inner hyphens, the last one
// alphabetic of at least two letters.
bool valid_local(std::string_view s) {
  if (s.empty() || s.size() > 64 || s.front() == '.' || s.back() == '.') return false;
  constexpr std::string_view kAllowed = "!#$%&'*+/=?^_`{|}~.-";
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (!is_alnum(c) && kAllowed.find(static_cast<char>(c)) == std::string_view::npos) return false;
    if (c == '.' && i + 1 < s.size() && s[i + 1] == '.') return false;
  }
  return true;
}

bool valid_domain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  int labels = 0;
  std::string_view last;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
      return false;
    for (unsigned char c : label)
      if (!is_alnum(c) && c != '-') return false;
    ++labels;
    last = label;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (labels < 2 || last.size() < 2) return false;
  for (unsigned char c : last)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  return true;
}

std::string quoted(std::string_view field) { return "'" + std::string(field) + "'"; }

// Reads a string field that may be absent or null; `check` validates a present value.
template <typename Check>
Result<FieldChange> read_field(const FieldReader& r, std::string_view field, Check check) {
  FieldChange out;
  const rapidjson::Value* v = r.get(field);
  if (v == nullptr) return out;
  out.sent = true;
  if (v->IsNull()) return out;
  if (!v->IsString()) return ApiError::invalid(quoted(field) + " must be a string or null.");
  std::string s(v->GetString(), v->GetStringLength());
  PARLEY_TRY(check(s));
  out.value = std::move(s);
  return out;
}
}  // namespace

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool is_valid_email(std::string_view email) {
  if (email.size() > 254) return false;
  size_t at = email.find('@');
  if (at == std::string_view::npos || email.find('@', at + 1) != std::string_view::npos)
    return false;
  return valid_local(email.substr(0, at)) && valid_domain(email.substr(at + 1));
}

bool is_valid_phone(std::string_view phone) {
  if (!phone.empty() && phone.front() == '+') phone.remove_prefix(1);
  if (phone.size() < 7 || phone.size() > 15) return false;
  for (char c : phone)
    if (c < '0' || c > '9') return false;
  return true;
}

bool is_valid_attribute_name(std::string_view name) {
  if (name.empty() || name.size() > 40 || name.front() < 'a' || name.front() > 'z') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

Result<ContactInput> parse_contact_input(const rapidjson::Value& body) {
  FieldReader r(body);
  ContactInput in;
  PARLEY_ASSIGN_OR_RETURN(
      in.external_id, read_field(r, "external_id", [](std::string& s) -> Result<void> {
        if (s.empty() || utf8_length(s) > 200)
          return ApiError::invalid("'external_id' must be 1 to 200 characters.");
        return {};
      }));
  PARLEY_ASSIGN_OR_RETURN(in.email, read_field(r, "email", [](std::string& s) -> Result<void> {
                            if (!is_valid_email(s))
                              return ApiError::invalid("'email' must be a valid email address.");
                            s = lower_ascii(s);
                            return {};
                          }));
  PARLEY_ASSIGN_OR_RETURN(
      in.phone, read_field(r, "phone", [](std::string& s) -> Result<void> {
        if (!is_valid_phone(s))
          return ApiError::invalid("'phone' must be 7 to 15 digits, optionally preceded by '+'.");
        return {};
      }));
  PARLEY_ASSIGN_OR_RETURN(in.name, read_field(r, "name", [](std::string& s) -> Result<void> {
                            if (utf8_length(s) > 100)
                              return ApiError::invalid("'name' must be at most 100 characters.");
                            return {};
                          }));
  const rapidjson::Value* attrs = r.get("attributes");
  if (attrs != nullptr && !attrs->IsNull()) {
    if (!attrs->IsObject()) return ApiError::invalid("'attributes' must be an object.");
    in.attributes_sent = true;
    for (auto it = attrs->MemberBegin(); it != attrs->MemberEnd(); ++it) {
      std::string name(it->name.GetString(), it->name.GetStringLength());
      const auto& v = it->value;
      const std::string field = "'attributes." + name + "'";
      if (!is_valid_attribute_name(name)) {
        return ApiError::invalid("Attribute name " + field +
                                 " must start with a lower-case letter and use only lower-case "
                                 "letters, digits and underscores, up to 40 characters.");
      }
      if (v.IsNull()) {
        in.attributes.emplace_back(std::move(name), std::nullopt);
        continue;
      }
      if (v.IsString() && utf8_length({v.GetString(), v.GetStringLength()}) > 1000) {
        return ApiError::invalid(field + " must be at most 1000 characters.");
      }
      if (!v.IsString() && !v.IsNumber() && !v.IsBool()) {
        return ApiError::invalid(field + " must be text, a number, a boolean or null.");
      }
      in.attributes.emplace_back(std::move(name), to_json(v));
    }
    if (in.attributes.size() > kMaxContactAttributes) {
      return ApiError::invalid("'attributes' may hold at most 50 attributes.");
    }
  }
  return in;
}

}  // namespace parley
