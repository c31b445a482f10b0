// The caps every extraction runs under (extract/extract.h uses them; the PDF and DOCX readers
// check theirs; extract/isolated_reader.h holds a PDF's child process to the reader's budget).
// Plain data.
#pragma once

#include <cstddef>
#include <cstdint>

namespace parley {

struct ExtractLimits {
  size_t max_text_chars = 2'000'000;     // output beyond is cut at a block boundary
  size_t max_expanded_bytes = 64 << 20;  // DOCX: total uncompressed size read from the zip
  double max_ratio = 200;                // DOCX: uncompressed/compressed of any entry
  int max_pdf_pages = 3000;
  // A PDF's reading, in a child process: CPU time of a base plus a share per MiB of the file
  // (dense text reads at about 7 MiB/s of uncompressed content here; 3,000 pages in 2.1 s), and
  // memory beyond what the child maps at its start.
  int64_t reader_cpu_ms = 5'000;
  int64_t reader_cpu_ms_per_mib = 1'000;
  size_t reader_memory_bytes = size_t{1} << 30;
};

}  // namespace parley
