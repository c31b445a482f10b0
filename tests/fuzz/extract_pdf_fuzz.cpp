// Fuzzes PDF extraction through poppler: any bytes as a PDF file. Either text or a 400 with a
// readable message; never a crash, a sanitizer report or a hang (libFuzzer's -timeout).
#include <cstdint>
#include <string_view>

#include "extract/extract.h"
#include "extract/pdf.h"
#include "extract_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parley;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ExtractLimits limits;
  limits.max_pdf_pages = 50;
  check_result(extract_pdf(bytes, limits));
  check_result(extract_document({bytes, "application/pdf", "file.pdf"}, limits));
  return 0;
}
