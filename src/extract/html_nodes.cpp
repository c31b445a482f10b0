#include "extract/html_nodes.h"

#include <string>

namespace parley::html {

char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string to_lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower_ascii(c);
  return out;
}

const char* attribute(const GumboNode* node, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&node->v.element.attributes, name);
  return a == nullptr ? nullptr : a->value;
}

// Whether the white-space separated `list` holds `token`, case-insensitively.
bool has_token(std::string_view list, std::string_view token) {
  std::string l = to_lower_ascii(list);
  for (char& c : l)
    if (c == ',' || c == '\t' || c == '\n' || c == '\r' || c == '\f') c = ' ';
  size_t pos = 0;
  while (pos < l.size()) {
    size_t end = l.find(' ', pos);
    if (end == std::string::npos) end = l.size();
    if (std::string_view(l).substr(pos, end - pos) == token) return true;
    pos = end + 1;
  }
  return false;
}

bool is_hidden(const GumboNode* node) {
  if (attribute(node, "hidden") != nullptr) return true;
  if (const char* aria = attribute(node, "aria-hidden");
      aria != nullptr && to_lower_ascii(aria) == "true")
    return true;
  if (const char* style = attribute(node, "style"); style != nullptr) {
    std::string s;
    for (char c : std::string_view(style))
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') s.push_back(lower_ascii(c));
    if (s.find("display:none") != std::string::npos ||
        s.find("visibility:hidden") != std::string::npos)
      return true;
  }
  return false;
}

bool is_dropped_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_MATH:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_CANVAS:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_BUTTON:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_INPUT:
    case GUMBO_TAG_AUDIO:
    case GUMBO_TAG_VIDEO:
    case GUMBO_TAG_MAP:
      return true;
    default:
      return false;
  }
}

bool is_block_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_HTML:
    case GUMBO_TAG_BODY:
    case GUMBO_TAG_P:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_MENU:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_CENTER:
    case GUMBO_TAG_DETAILS:
    case GUMBO_TAG_SUMMARY:
    case GUMBO_TAG_FIELDSET:
    case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_HGROUP:
    case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_TD:
    case GUMBO_TAG_TH:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_OPTION:
      return true;
    default:
      return false;
  }
}

int heading_level(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_H1:
      return 1;
    case GUMBO_TAG_H2:
      return 2;
    case GUMBO_TAG_H3:
      return 3;
    case GUMBO_TAG_H4:
      return 4;
    case GUMBO_TAG_H5:
      return 5;
    case GUMBO_TAG_H6:
      return 6;
    default:
      return 0;
  }
}

}  // namespace parley::html
