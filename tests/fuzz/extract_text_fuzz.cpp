// Fuzzes the text readers through extract_document: the first byte picks Markdown, CSV or plain
// text and a declared charset (none, UTF-8, Windows-1252, Shift_JIS, UTF-16LE), the rest is the
// file. Either a document or "No text found."; the CSV reader's records never lose a field.
#include <cstdint>
#include <string_view>

#include "extract/extract.h"
#include "extract/plain_text.h"
#include "extract_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parley;
  if (size == 0) return 0;
  static constexpr std::string_view kTypes[] = {"text/markdown", "text/csv", "text/plain"};
  static constexpr std::string_view kCharsets[] = {"", "; charset=utf-8", "; charset=windows-1252",
                                                   "; charset=shift_jis", "; charset=utf-16le"};
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string type = std::string(kTypes[data[0] % 3]) + std::string(kCharsets[data[0] / 3 % 5]);
  auto result = extract_document({bytes, type, ""});
  check_result(result);
  ExtractLimits small;
  small.max_text_chars = data[0];
  auto cut = extract_document({bytes, type, ""}, small);
  check_result(cut);
  if (cut.ok()) {
    size_t chars = 0;
    for (const TextBlock& b : cut->blocks)
      for (char c : b.text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    FUZZ_CHECK(chars <= small.max_text_chars);
  }
  char separator = detect_csv_separator(bytes);
  FUZZ_CHECK(separator == ',' || separator == ';' || separator == '\t');
  return 0;
}
