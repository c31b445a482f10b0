// Documents to text: the one entry point the crawler and file uploads call. The bytes' media type
// is sniffed (extract/media_type.h), text is decoded to UTF-8 (extract/charset.h), and the reader
// for the type (HTML, PDF, DOCX, Markdown, plain text, CSV) makes an ExtractedDocument; its text
// is then cut at a block boundary to `max_text_chars` characters.
// A document that cannot be read is a 400 invalid_request whose message a person understands:
// "Not text: image/png.", "The PDF is encrypted.", "No text found: the PDF holds only images.",
// "The file is damaged: …", "The archive expands too much.", "No text found." Never crashes,
// never hangs (the fuzz targets in tests/fuzz/ hold it to that).
// Thread-safe: calls share nothing.
#pragma once

#include <string_view>

#include "core/result.h"
#include "extract/document.h"
#include "extract/limits.h"
#include "extract/media_type.h"

namespace parley {

struct ExtractInput {
  std::string_view bytes;
  std::string_view content_type;  // may carry charset=; may be empty
  std::string_view filename;      // may be empty
};

Result<ExtractedDocument> extract_document(const ExtractInput& in,
                                           const ExtractLimits& limits = {});

// Keeps the blocks of `doc` whose text fits in `max_chars` characters (code points) in all; a
// first block longer than that is cut at a character boundary.
void cut_to_limit(ExtractedDocument& doc, size_t max_chars);

}  // namespace parley
