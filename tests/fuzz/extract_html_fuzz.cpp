// Fuzzes HTML extraction: any bytes, declared as an HTML page with or without a charset, through
// extract_document (sniffing, charset prescan and conversion, gumbo, the block writer). An HTML
// page never fails; the document obeys extract_check.h.
#include <cstdint>
#include <string_view>

#include "extract/extract.h"
#include "extract_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parley;
  if (size == 0) return 0;
  static constexpr std::string_view kTypes[] = {"text/html", "text/html; charset=windows-1252",
                                                "text/html; charset=shift_jis", ""};
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string_view type = kTypes[data[0] % 4];
  auto result = extract_document({bytes, type, "page.html"});
  check_result(result);
  if (sniff_media_type(bytes, type, "page.html").type == MediaType::kHtml) FUZZ_CHECK(result.ok());
  return 0;
}
