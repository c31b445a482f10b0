// The body of a Word document (word/document.xml) as blocks: paragraphs, headings by style,
// list items, table rows. Part of the DOCX reader (extract/docx.h).
// Pure function; thread-safe.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "extract/document.h"

namespace parley {

// What a paragraph style makes of its paragraphs.
struct DocxStyle {
  int heading_level = 0;  // 1..6 for Title and Heading N; 0 otherwise
  bool list = false;      // a List … style
};

// Appends the blocks of `document_xml` to `blocks`; 400 "The file is damaged: …" when the XML
// does not parse. `styles` maps style ids to what they mean (empty without word/styles.xml: the
// ids "Title" and "HeadingN" are then read as they are named).
Result<void> read_docx_body(const std::string& document_xml,
                            const std::unordered_map<std::string, DocxStyle>& styles,
                            std::vector<TextBlock>& blocks);

}  // namespace parley
