// Reads a Word document (.docx, Office Open XML) with libzip, from memory, and pugixml:
// word/document.xml's paragraphs in order, a heading for each paragraph styled Title or
// Heading 1…9 (styles found by name in word/styles.xml, so a localised Word's style ids read
// too, or by outline level), list items for numbered or List styled paragraphs, table rows as
// lines (the first row as column headers when Word marks it a header row); the title from
// docProps/core.xml. Zip bombs are refused before and while inflating: no entry may expand more
// than `max_ratio` times its compressed size, and everything read stays under
// `max_expanded_bytes` ("The archive expands too much.").
// Thread-safe: each call opens its own archive.
#pragma once

#include <string_view>

#include "core/result.h"
#include "extract/document.h"
#include "extract/limits.h"

namespace parley {

Result<ExtractedDocument> extract_docx(std::string_view bytes, const ExtractLimits& limits);

}  // namespace parley
