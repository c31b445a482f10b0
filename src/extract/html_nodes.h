// Questions about gumbo's nodes that the HTML reader asks (extract/html.h): attributes, whether an
// element is hidden or dropped with its content, which elements end a paragraph, heading levels.
// Pure functions; thread-safe.
#pragma once

#include <gumbo.h>

#include <string>
#include <string_view>

namespace parley::html {

char lower_ascii(char c);
std::string to_lower_ascii(std::string_view s);

// The attribute's value, or nullptr when the element has none of that name.
const char* attribute(const GumboNode* node, const char* name);

// Whether the white-space (or comma) separated `list` holds `token`, case-insensitively.
bool has_token(std::string_view list, std::string_view token);

// `hidden`, aria-hidden="true", or a style of display:none or visibility:hidden.
bool is_hidden(const GumboNode* node);

// Elements dropped with everything inside (script, style, nav, form, ...).
bool is_dropped_tag(GumboTag tag);

// Elements that end a paragraph before and after them.
bool is_block_tag(GumboTag tag);

// 1..6 for h1..h6, else 0.
int heading_level(GumboTag tag);

inline bool is_element(const GumboNode* node) { return node->type == GUMBO_NODE_ELEMENT; }

inline bool is_text(const GumboNode* node) {
  return node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE ||
         node->type == GUMBO_NODE_CDATA;
}

inline const GumboVector& children(const GumboNode* node) { return node->v.element.children; }

inline const GumboNode* child(const GumboVector& v, unsigned i) {
  return static_cast<const GumboNode*>(v.data[i]);
}

}  // namespace parley::html
