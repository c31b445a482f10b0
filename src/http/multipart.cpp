#include "http/multipart.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace parley {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && lower(a) == lower(b);
}

// RFC 9110 tchar.
bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// RFC 2046 bchars (the space only inside).
bool is_bchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

struct HeaderValue {
  std::string type;                                         // lower case
  std::vector<std::pair<std::string, std::string>> params;  // names lower case
};

// `type *( ";" name "=" ( token / quoted-string ) )`. In a quoted string `\"` is a quote and
// `%22` too (how browsers write one in a name: WHATWG's form encoding); any other backslash is
// itself, since browsers send names as they are (`C:\Users\ann\notes.txt`). Empty when the
// value is malformed.
std::optional<HeaderValue> parse_header_value(std::string_view s) {
  HeaderValue out;
  size_t semi = s.find(';');
  out.type = lower(trim(s.substr(0, semi)));
  if (out.type.empty()) return std::nullopt;
  s = semi == std::string_view::npos ? std::string_view() : s.substr(semi + 1);
  while (!trim(s).empty()) {
    s = trim(s);
    size_t eq = s.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    std::string_view name = trim(s.substr(0, eq));
    if (name.empty() || !std::all_of(name.begin(), name.end(), is_tchar)) return std::nullopt;
    s = trim(s.substr(eq + 1));
    std::string value;
    if (!s.empty() && s.front() == '"') {
      size_t i = 1;
      for (; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '"') ++i;
        if (s.substr(i, 3) == "%22") {
          value.push_back('"');
          i += 2;
          continue;
        }
        value.push_back(s[i]);
      }
      if (i >= s.size()) return std::nullopt;  // no closing quote
      s = trim(s.substr(i + 1));
    } else {
      size_t end = 0;
      while (end < s.size() && is_tchar(s[end])) ++end;
      value = std::string(s.substr(0, end));
      s = trim(s.substr(end));
      if (value.empty()) return std::nullopt;
    }
    if (!s.empty() && s.front() != ';') return std::nullopt;
    if (!s.empty()) s.remove_prefix(1);
    out.params.emplace_back(lower(name), std::move(value));
  }
  return out;
}

const std::string* param(const HeaderValue& v, std::string_view name) {
  for (const auto& p : v.params)
    if (p.first == name) return &p.second;
  return nullptr;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 8187 `UTF-8''percent%20encoded`; none for another charset or a bad escape.
std::optional<std::string> extended_value(std::string_view v) {
  size_t first = v.find('\'');
  if (first == std::string_view::npos) return std::nullopt;
  size_t second = v.find('\'', first + 1);
  if (second == std::string_view::npos || !iequals(v.substr(0, first), "utf-8"))
    return std::nullopt;
  std::string out;
  for (size_t i = second + 1; i < v.size(); ++i) {
    if (v[i] != '%') {
      out.push_back(v[i]);
      continue;
    }
    if (i + 2 >= v.size()) return std::nullopt;
    int hi = hex_value(v[i + 1]), lo = hex_value(v[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

ApiError malformed(const std::string& why) {
  return ApiError::invalid("The multipart body is malformed: " + why);
}

// One part's header block (without its final CRLF CRLF) into `part`.
Result<void> read_part_headers(std::string_view block, const MultipartLimits& limits, size_t index,
                               MultipartPart& part) {
  const std::string which = "part " + std::to_string(index + 1);
  bool disposition = false;
  size_t lines = 0;
  while (!block.empty()) {
    size_t crlf = block.find("\r\n");
    std::string_view line = block.substr(0, crlf);
    block = crlf == std::string_view::npos ? std::string_view() : block.substr(crlf + 2);
    if (++lines > limits.max_headers)
      return malformed(which + " has more than " + std::to_string(limits.max_headers) +
                       " headers.");
    if (line.empty() || is_space(line.front()))
      return malformed(which + " has a folded or empty header line.");
    for (char c : line) {
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
        return malformed(which + " has a control character in its headers.");
    }
    size_t colon = line.find(':');
    std::string_view name =
        colon == std::string_view::npos ? std::string_view() : line.substr(0, colon);
    if (name.empty() || !std::all_of(name.begin(), name.end(), is_tchar))
      return malformed(which + " has a header line without a name.");
    std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-disposition")) {
      if (disposition) return malformed(which + " has two Content-Disposition headers.");
      disposition = true;
      auto v = parse_header_value(value);
      if (!v || v->type != "form-data" || param(*v, "name") == nullptr)
        return malformed(which + " needs 'Content-Disposition: form-data; name=\"…\"'.");
      part.name = *param(*v, "name");
      if (const std::string* f = param(*v, "filename")) part.filename = *f;
      if (const std::string* f = param(*v, "filename*")) {
        if (auto decoded = extended_value(*f)) part.filename = std::move(*decoded);
      }
    } else if (iequals(name, "content-type")) {
      part.content_type = std::string(value);
    } else if (iequals(name, "content-transfer-encoding")) {
      std::string encoding = lower(value);
      if (encoding != "binary" && encoding != "8bit" && encoding != "7bit")
        return malformed(which + " uses Content-Transfer-Encoding " + std::string(value) +
                         "; send the bytes as they are.");
    }
  }
  if (!disposition)
    return malformed(which + " needs 'Content-Disposition: form-data; name=\"…\"'.");
  return {};
}

}  // namespace

Result<std::string> multipart_boundary(std::string_view content_type) {
  auto v = parse_header_value(content_type);
  if (!v || v->type != "multipart/form-data")
    return ApiError::invalid("Content-Type must be multipart/form-data with a boundary.");
  const std::string* b = param(*v, "boundary");
  if (b == nullptr || b->empty() || b->size() > 70 || b->back() == ' ' ||
      !std::all_of(b->begin(), b->end(), is_bchar)) {
    return ApiError::invalid(
        "Content-Type multipart/form-data needs a boundary of 1 to 70 characters.");
  }
  return *b;
}

Result<std::vector<MultipartPart>> parse_multipart(std::string_view body, std::string_view boundary,
                                                   const MultipartLimits& limits) {
  if (boundary.empty()) return malformed("no boundary.");
  const std::string delimiter = "\r\n--" + std::string(boundary);
  const std::boyer_moore_horspool_searcher search(delimiter.begin(), delimiter.end());
  auto find = [&](size_t from) -> size_t {
    auto it = std::search(body.begin() + static_cast<std::ptrdiff_t>(from), body.end(), search);
    return it == body.end() ? std::string_view::npos : static_cast<size_t>(it - body.begin());
  };
  // The first delimiter may open the body without the CRLF before it.
  std::string_view first = std::string_view(delimiter).substr(2);
  size_t pos;
  if (body.substr(0, first.size()) == first) {
    pos = first.size();
  } else {
    size_t at = find(0);
    if (at == std::string_view::npos) return malformed("the boundary does not occur in it.");
    pos = at + delimiter.size();
  }
  std::vector<MultipartPart> parts;
  while (true) {
    if (body.substr(pos, 2) == "--")
      return parts;  // the closing delimiter; the epilogue is ignored
    while (pos < body.size() && is_space(body[pos])) ++pos;  // transport padding
    if (body.substr(pos, 2) != "\r\n") return malformed("a boundary line does not end with CRLF.");
    pos += 2;
    if (parts.size() == limits.max_parts)
      return malformed("it has more than " + std::to_string(limits.max_parts) + " parts.");
    MultipartPart part;
    size_t body_start;
    if (body.substr(pos, 2) == "\r\n") {
      body_start = pos + 2;  // no headers: refused below for want of a name
      PARLEY_TRY(read_part_headers({}, limits, parts.size(), part));
    } else {
      std::string_view window = body.substr(pos, limits.max_header_bytes + 4);
      size_t end = window.find("\r\n\r\n");
      if (end == std::string_view::npos) {
        return malformed(
            window.size() < limits.max_header_bytes + 4
                ? "it ends inside the headers of part " + std::to_string(parts.size() + 1) + "."
                : "the headers of part " + std::to_string(parts.size() + 1) + " exceed " +
                      std::to_string(limits.max_header_bytes) + " bytes.");
      }
      PARLEY_TRY(read_part_headers(window.substr(0, end), limits, parts.size(), part));
      body_start = pos + end + 4;
    }
    size_t next = find(body_start);
    if (next == std::string_view::npos) return malformed("it ends before its closing boundary.");
    part.body = body.substr(body_start, next - body_start);
    parts.push_back(std::move(part));
    pos = next + delimiter.size();
  }
}

Result<const MultipartPart*> optional_part(const std::vector<MultipartPart>& parts,
                                           std::string_view name) {
  const MultipartPart* found = nullptr;
  for (const auto& p : parts) {
    if (p.name != name) continue;
    if (found != nullptr)
      return ApiError::invalid("Send one part named '" + std::string(name) + "', not several.");
    found = &p;
  }
  return found;
}

Result<const MultipartPart*> single_part(const std::vector<MultipartPart>& parts,
                                         std::string_view name) {
  PARLEY_ASSIGN_OR_RETURN(const MultipartPart* found, optional_part(parts, name));
  if (found == nullptr)
    return ApiError::invalid("The multipart body needs a part named '" + std::string(name) + "'.");
  return found;
}

}  // namespace parley
