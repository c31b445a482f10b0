// Reads a PDF's text with poppler-cpp: each page's text in reading order (poppler's
// reading-order layout, as pdftotext prints it), paragraphs split at blank lines and lines joined
// (a word hyphenated across a line joined again); the title from the document information.
// Errors are 400 invalid_request a person can act on: "The PDF is encrypted.", "No text found:
// the PDF holds only images.", "The file is damaged: …", "The PDF has N pages; at most M are
// read.". poppler's own error printing is silenced.
// Thread-safe: each call opens its own document.
#pragma once

#include <string_view>

#include "core/result.h"
#include "extract/document.h"
#include "extract/limits.h"

namespace parley {

Result<ExtractedDocument> extract_pdf(std::string_view bytes, const ExtractLimits& limits);

// Splits a page's text (lines, blank lines between paragraphs) into paragraph blocks.
void append_page_paragraphs(std::string_view page_text, std::vector<TextBlock>& blocks);

}  // namespace parley
