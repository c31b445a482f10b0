#include "crawl/sitemap.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <pugixml.hpp>

namespace parley {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// An element's name without its namespace prefix ("sm:urlset" → "urlset").
std::string_view local_name(const pugi::xml_node& node) {
  std::string_view name = node.name();
  if (auto colon = name.find(':'); colon != std::string_view::npos) name.remove_prefix(colon + 1);
  return name;
}

// The trimmed text of the first child element named `name`, when it has any.
std::optional<std::string> child_text(const pugi::xml_node& parent, std::string_view name) {
  for (pugi::xml_node child : parent.children()) {
    if (child.type() != pugi::node_element || local_name(child) != name) continue;
    std::string_view text = trim(child.text().get());
    if (text.empty()) return std::nullopt;
    return std::string(text);
  }
  return std::nullopt;
}

bool starts_with_http(std::string_view line) {
  auto lower_prefix = [&](std::string_view prefix) {
    if (line.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
      char c = line[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != prefix[i]) return false;
    }
    return true;
  };
  return lower_prefix("http://") || lower_prefix("https://");
}

// sitemaps.org's text format: one absolute URL a line.
Result<Sitemap> parse_text_sitemap(std::string_view body, size_t max_entries) {
  Sitemap out;
  while (!body.empty() && out.pages.size() < max_entries) {
    size_t end = body.find_first_of("\r\n");
    std::string_view line = trim(body.substr(0, end));
    body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
    if (line.empty()) continue;
    if (!starts_with_http(line)) {
      return ApiError::invalid("Not a sitemap: neither XML nor a list of http(s) addresses.");
    }
    out.pages.push_back({std::string(line), std::nullopt});
  }
  if (out.pages.empty()) return ApiError::invalid("Not a sitemap: the document is empty.");
  return out;
}

// An HTML page (which XML parsers refuse at its <!doctype html>) named as such.
bool looks_like_html(std::string_view body) {
  std::string head(body.substr(0, 1024));
  for (char& c : head) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return head.find("<!doctype html") != std::string::npos ||
         head.find("<html") != std::string::npos;
}

Result<Sitemap> parse_xml_sitemap(std::string_view body, size_t max_entries) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed =
      doc.load_buffer(body.data(), body.size(), pugi::parse_default, pugi::encoding_auto);
  if (!parsed) {
    if (looks_like_html(body))
      return ApiError::invalid("Not a sitemap: the document is an HTML page.");
    return ApiError::invalid(std::string("The sitemap is not valid XML: ") + parsed.description() +
                             " at byte " + std::to_string(parsed.offset) + ".");
  }
  pugi::xml_node root = doc.document_element();
  std::string_view kind = local_name(root);
  Sitemap out;
  if (kind == "urlset") {
    for (pugi::xml_node url : root.children()) {
      if (out.pages.size() >= max_entries) break;
      if (url.type() != pugi::node_element || local_name(url) != "url") continue;
      auto loc = child_text(url, "loc");
      if (!loc) continue;
      out.pages.push_back({std::move(*loc), child_text(url, "lastmod")});
    }
  } else if (kind == "sitemapindex") {
    for (pugi::xml_node sitemap : root.children()) {
      if (out.sitemaps.size() >= max_entries) break;
      if (sitemap.type() != pugi::node_element || local_name(sitemap) != "sitemap") continue;
      if (auto loc = child_text(sitemap, "loc")) out.sitemaps.push_back(std::move(*loc));
    }
  } else {
    std::string name(root.name());
    if (name.size() > 40) name = name.substr(0, 40) + "…";
    return ApiError::invalid("Not a sitemap: the document's root is <" + name +
                             ">, not <urlset> or <sitemapindex>.");
  }
  return out;
}

}  // namespace

bool looks_gzipped(std::string_view body) {
  return body.size() >= 2 && static_cast<unsigned char>(body[0]) == 0x1f &&
         static_cast<unsigned char>(body[1]) == 0x8b;
}

Result<std::string> gunzip(std::string_view body, size_t max_output_bytes) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return ApiError::internal("zlib did not start.");
  struct End {
    z_stream* zs;
    ~End() { inflateEnd(zs); }
  } end{&zs};

  std::string out;
  char buffer[64 * 1024];
  const auto* next = reinterpret_cast<const unsigned char*>(body.data());
  size_t left = body.size();
  while (true) {
    if (zs.avail_in == 0 && left > 0) {
      zs.next_in = const_cast<unsigned char*>(next);
      zs.avail_in = static_cast<uInt>(std::min<size_t>(left, UINT_MAX));
      next += zs.avail_in;
      left -= zs.avail_in;
    }
    zs.next_out = reinterpret_cast<unsigned char*>(buffer);
    zs.avail_out = sizeof buffer;
    int rc = inflate(&zs, Z_NO_FLUSH);
    size_t produced = sizeof buffer - zs.avail_out;
    if (out.size() + produced > max_output_bytes) {
      return ApiError::invalid("The gzip data expands beyond " + std::to_string(max_output_bytes) +
                               " bytes.");
    }
    out.append(buffer, produced);
    if (rc == Z_STREAM_END) {
      // Another gzip member may follow (concatenated files); anything else after the end is
      // ignored, as gzip(1) does with trailing zeros.
      std::string_view rest(reinterpret_cast<const char*>(zs.next_in), zs.avail_in);
      if (rest.empty() && left > 0)
        rest = std::string_view(reinterpret_cast<const char*>(next), left);
      if (!looks_gzipped(rest)) return out;
      if (inflateReset(&zs) != Z_OK) return ApiError::internal("zlib did not restart.");
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && left == 0) {
      return ApiError::invalid("The gzip data is truncated.");
    }
    if (rc == Z_BUF_ERROR) continue;
    return ApiError::invalid(std::string("The gzip data is damaged: ") +
                             (zs.msg != nullptr ? zs.msg : "unreadable") + ".");
  }
}

Result<Sitemap> parse_sitemap(std::string_view body, size_t max_entries) {
  std::string inflated;
  if (looks_gzipped(body)) {
    PARLEY_ASSIGN_OR_RETURN(inflated, gunzip(body, kMaxSitemapBytes));
    body = inflated;
  }
  std::string_view start = body;
  if (start.starts_with("\xEF\xBB\xBF")) start.remove_prefix(3);
  start = trim(start);
  if (start.empty()) return ApiError::invalid("Not a sitemap: the document is empty.");
  // XML starts with '<' (in UTF-8; a UTF-16 document starts with a byte-order mark or a zero).
  auto first = static_cast<unsigned char>(start[0]);
  bool xml = first == '<' || first == 0 || first >= 0xFE;
  if (!xml) return parse_text_sitemap(start, max_entries);
  return parse_xml_sitemap(body, max_entries);
}

}  // namespace parley
