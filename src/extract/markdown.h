// Reads Markdown (CommonMark and GitHub's tables) into blocks: ATX and setext headings, list
// items (bullets, numbers, task boxes; continuation lines joined), tables (each row as
// "Header: value; Header: value"), fenced code as preformatted text, block quotes as paragraphs;
// the text, not the markup: emphasis marks, link targets, images (their alt text stays), inline
// HTML tags and comments, link reference definitions and thematic breaks are left out. The title
// is a YAML front matter's `title:`, else the first heading.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "extract/document.h"

namespace parley {

// `utf8`: the file already decoded (extract/charset.h).
ExtractedDocument extract_markdown(std::string_view utf8);

// One line's inline Markdown as plain text ("**Open** [daily](/hours)" -> "Open daily").
std::string strip_inline_markdown(std::string_view line);

}  // namespace parley
