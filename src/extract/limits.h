// The caps every extraction runs under (extract/extract.h uses them; the PDF and DOCX readers
// check theirs). Plain data.
#pragma once

#include <cstddef>

namespace parley {

struct ExtractLimits {
  size_t max_text_chars = 2'000'000;     // output beyond is cut at a block boundary
  size_t max_expanded_bytes = 64 << 20;  // DOCX: total uncompressed size read from the zip
  double max_ratio = 200;                // DOCX: uncompressed/compressed of any entry
  int max_pdf_pages = 3000;
};

}  // namespace parley
