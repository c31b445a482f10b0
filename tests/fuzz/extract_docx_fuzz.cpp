// Fuzzes DOCX extraction: with the first byte even, the rest is a whole file (libzip, the bomb
// caps, pugixml); odd, the rest is word/document.xml read by the body reader directly, so the
// fuzzer reaches the XML without having to keep a zip's checksums right.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "extract/docx.h"
#include "extract/docx_body.h"
#include "extract/extract.h"
#include "extract_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parley;
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  ExtractLimits limits;
  limits.max_expanded_bytes = 4 << 20;
  if (data[0] % 2 == 0) {
    check_result(extract_docx(bytes, limits));
    check_result(extract_document({bytes, std::string(kDocxMediaType), "file.docx"}, limits));
  } else {
    ExtractedDocument doc;
    std::unordered_map<std::string, DocxStyle> styles = {{"Heading1", {1, false}},
                                                         {"ListBullet", {0, true}}};
    Result<void> read = read_docx_body(std::string(bytes), styles, doc.blocks);
    if (read.ok()) check_document(doc);
  }
  return 0;
}
