// The columns of a contact import: from a header and a mapping to the field each column fills.
#include <algorithm>
#include <unordered_map>

#include "core/json.h"
#include "domain/contact_import.h"
#include "domain/contacts.h"

namespace parley {

namespace {

constexpr std::string_view kTargets =
    "external_id, email, phone, name, attributes.<name> or ignore";

// Lower case without spaces, underscores and hyphens: "External ID" and "external_id" meet.
std::string folded(std::string_view header) {
  std::string out;
  for (char c : header) {
    if (c == ' ' || c == '_' || c == '-' || c == '\t') continue;
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  return out;
}

// "Signup Date" → "signup_date"; empty when the header holds anything but ASCII letters, digits
// and separators.
std::string slug(std::string_view header) {
  std::string out;
  bool gap = false;
  for (char c : header) {
    if (c == ' ' || c == '-' || c == '_' || c == '.' || c == '\t') {
      gap = !out.empty();
      continue;
    }
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && !(c >= '0' && c <= '9')) return "";
    if (gap) out.push_back('_');
    gap = false;
    out.push_back(letter ? static_cast<char>(c | 0x20) : c);
  }
  return out;
}

ApiError bad_mapping(std::string message) {
  return ApiError::invalid("'mapping' " + std::move(message));
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

std::string ColumnTarget::text() const {
  switch (field) {
    case ImportField::kExternalId:
      return "external_id";
    case ImportField::kEmail:
      return "email";
    case ImportField::kPhone:
      return "phone";
    case ImportField::kName:
      return "name";
    case ImportField::kAttribute:
      return "attributes." + attribute;
    case ImportField::kIgnore:
      break;
  }
  return "ignore";
}

std::optional<ColumnTarget> parse_column_target(std::string_view text) {
  if (text == "external_id") return ColumnTarget{ImportField::kExternalId, ""};
  if (text == "email") return ColumnTarget{ImportField::kEmail, ""};
  if (text == "phone") return ColumnTarget{ImportField::kPhone, ""};
  if (text == "name") return ColumnTarget{ImportField::kName, ""};
  if (text == "ignore") return ColumnTarget{};
  constexpr std::string_view kPrefix = "attributes.";
  if (text.substr(0, kPrefix.size()) == kPrefix &&
      is_valid_attribute_name(text.substr(kPrefix.size())))
    return ColumnTarget{ImportField::kAttribute, std::string(text.substr(kPrefix.size()))};
  return std::nullopt;
}

ColumnTarget default_column_target(std::string_view header) {
  std::string f = folded(header);
  if (f == "externalid") return {ImportField::kExternalId, ""};
  if (f == "email") return {ImportField::kEmail, ""};
  if (f == "phone") return {ImportField::kPhone, ""};
  if (f == "name") return {ImportField::kName, ""};
  std::string s = slug(header);
  if (is_valid_attribute_name(s)) return {ImportField::kAttribute, s};
  return {};
}

Result<ColumnMapping> map_columns(const std::vector<std::string>& headers,
                                  std::string_view mapping_json) {
  ColumnMapping m;
  m.headers = headers;
  m.targets.assign(headers.size(), ColumnTarget{});
  std::vector<bool> given(headers.size(), false);
  if (!mapping_json.empty()) {
    std::unordered_map<std::string_view, std::vector<size_t>> columns_named;
    for (size_t i = 0; i < headers.size(); ++i) columns_named[headers[i]].push_back(i);
    auto doc = parse_json_object(mapping_json);
    if (!doc.ok())
      return bad_mapping("must be a JSON object from a column's header to its target.");
    for (auto it = doc->MemberBegin(); it != doc->MemberEnd(); ++it) {
      std::string_view header(it->name.GetString(), it->name.GetStringLength());
      std::optional<ColumnTarget> target;
      if (it->value.IsString())
        target = parse_column_target({it->value.GetString(), it->value.GetStringLength()});
      if (!target)
        return bad_mapping("for " + quoted(header) + " must be " + std::string(kTargets) + ".");
      auto named = columns_named.find(header);
      if (named != columns_named.end()) {
        for (size_t i : named->second) {
          m.targets[i] = *target;
          given[i] = true;
        }
      }
      if (named == columns_named.end())
        return bad_mapping("names the column " + quoted(header) +
                           ", which the file does not have.");
    }
  }
  // How many columns go to each field (by its text): one pass, so a header of many thousand
  // columns costs their number, not its square.
  std::unordered_map<std::string, size_t> columns_of;
  for (const ColumnTarget& t : m.targets)
    if (t.field != ImportField::kIgnore) ++columns_of[t.text()];
  for (size_t i = 0; i < headers.size(); ++i) {
    if (given[i] || m.targets[i].field != ImportField::kIgnore) continue;
    ColumnTarget t = default_column_target(headers[i]);
    if (t.field == ImportField::kIgnore) continue;
    size_t& n = columns_of[t.text()];
    if (n > 0) continue;  // the field has a column already
    ++n;
    m.targets[i] = std::move(t);
  }
  for (size_t i = 0; i < headers.size(); ++i) {
    if (!given[i] || m.targets[i].field == ImportField::kIgnore) continue;
    if (columns_of[m.targets[i].text()] > 1) {
      return bad_mapping("sends two columns to " + m.targets[i].text() +
                         "; give each field one column.");
    }
  }
  bool identified = std::any_of(m.targets.begin(), m.targets.end(), [](const ColumnTarget& t) {
    return t.field == ImportField::kExternalId || t.field == ImportField::kEmail;
  });
  if (!identified) {
    return bad_mapping(
        "maps no column to external_id or email; each contact needs one of them (columns: " +
        [&] {
          std::string list;
          for (const auto& h : headers) list += (list.empty() ? "" : ", ") + quoted(h);
          return list;
        }() +
        ").");
  }
  return m;
}

}  // namespace parley
