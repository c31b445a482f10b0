#include "engine/contact_details.h"

#include <algorithm>
#include <cctype>

namespace parley {

namespace {
bool local_char(unsigned char c) {
  return std::isalnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}
bool domain_char(unsigned char c) { return std::isalnum(c) || c == '.' || c == '-'; }

std::optional<std::string> find_email(std::string_view t) {
  for (size_t at = t.find('@'); at != std::string_view::npos; at = t.find('@', at + 1)) {
    size_t b = at;
    while (b > 0 && local_char(static_cast<unsigned char>(t[b - 1]))) --b;
    size_t e = at + 1;
    while (e < t.size() && domain_char(static_cast<unsigned char>(t[e]))) ++e;
    while (e > at + 1 && (t[e - 1] == '.' || t[e - 1] == '-')) --e;  // "me@x.com." ends a sentence
    while (b < at && t[b] == '.') ++b;
    std::string_view local = t.substr(b, at - b);
    std::string_view domain = t.substr(at + 1, e - at - 1);
    size_t dot = domain.rfind('.');
    if (local.empty() || dot == std::string_view::npos || dot == 0 || domain.size() - dot - 1 < 2)
      continue;
    bool tld_alpha = true;
    for (char c : domain.substr(dot + 1))
      tld_alpha = tld_alpha && std::isalpha(static_cast<unsigned char>(c));
    if (!tld_alpha || domain.find("..") != std::string_view::npos) continue;
    std::string email(t.substr(b, e - b));
    for (auto& c : email) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return email;
  }
  return std::nullopt;
}

std::optional<std::string> find_phone(std::string_view t) {
  for (size_t i = 0; i < t.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    bool starts = c == '+' || c == '(' || std::isdigit(c);
    // A number inside a word or an email ("abc123", "x1@y.z") is not a phone.
    if (!starts ||
        (i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '@')))
      continue;
    std::string digits;
    bool plus = c == '+';
    size_t j = plus ? i + 1 : i;
    size_t last_digit = j;
    for (; j < t.size(); ++j) {
      unsigned char d = static_cast<unsigned char>(t[j]);
      if (std::isdigit(d)) {
        digits.push_back(static_cast<char>(d));
        last_digit = j;
      } else if (d != ' ' && d != '-' && d != '.' && d != '(' && d != ')') {
        break;
      }
    }
    bool glued =
        last_digit + 1 < t.size() &&
        (std::isalpha(static_cast<unsigned char>(t[last_digit + 1])) || t[last_digit + 1] == '@');
    if (digits.size() >= 7 && digits.size() <= 15 && !glued) return (plus ? "+" : "") + digits;
    i = std::max(i, last_digit);
  }
  return std::nullopt;
}
}  // namespace

std::string ContactDetails::person_key() const {
  if (email) return *email;
  std::string digits;
  for (char c : phone.value_or(""))
    if (std::isdigit(static_cast<unsigned char>(c))) digits.push_back(c);
  return digits;
}

ContactDetails find_contact_details(std::string_view text) {
  ContactDetails d;
  d.email = find_email(text);
  // Digits inside the email address are not a phone number.
  std::string rest(text);
  if (d.email) {
    for (size_t at = rest.find('@'); at != std::string::npos; at = rest.find('@', at + 1)) {
      size_t b = at, e = at;
      while (b > 0 && !std::isspace(static_cast<unsigned char>(rest[b - 1]))) --b;
      while (e < rest.size() && !std::isspace(static_cast<unsigned char>(rest[e]))) ++e;
      rest.replace(b, e - b, e - b, ' ');
    }
  }
  d.phone = find_phone(rest);
  return d;
}

}  // namespace parley
