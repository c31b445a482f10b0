// Text bytes to UTF-8, whatever charset they came in. The charset is taken from, in order: a byte
// order mark (UTF-8, UTF-16LE/BE; it cannot be mistaken), the Content-Type's `charset=`, for HTML
// a <meta charset> or <meta http-equiv="Content-Type" content="…; charset=…"> in the first 1024
// bytes, then detection: valid UTF-8 is UTF-8, else ICU's detector (ucsdet, on the first 16 KiB),
// else Windows-1252. Labels follow the WHATWG Encoding standard where browsers differ from ICU:
// ISO-8859-1, Latin-1 and US-ASCII are read as Windows-1252 (its superset). Conversion is ICU's
// (ucnv; Windows-1252 by table); bytes that are invalid in the charset become U+FFFD. The HTML,
// plain text, Markdown and CSV readers use it, and so may importers of text files (contact CSVs).
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace parley {

struct DecodedText {
  std::string text;     // UTF-8, without a byte order mark
  std::string charset;  // the charset the bytes were read as ("UTF-8", "windows-1252", ...)
};

// Reads `bytes` as text. `content_type` may carry charset=; `html` enables the <meta> prescan.
DecodedText decode_text(std::string_view bytes, std::string_view content_type, bool html);

// The charset= parameter of a Content-Type value, unquoted; nullopt when absent or empty.
std::optional<std::string> charset_parameter(std::string_view content_type);

// The charset an HTML document declares in a <meta> within its first 1024 bytes.
std::optional<std::string> prescan_meta_charset(std::string_view bytes);

// The charset `bytes` most likely are in, without a declaration: "UTF-8" when they are valid
// UTF-8 (plain ASCII included), else ICU's best guess, else "windows-1252".
std::string detect_charset(std::string_view bytes);

// Converts `bytes` from `charset` to UTF-8; nullopt when ICU knows no such charset.
std::optional<std::string> convert_to_utf8(std::string_view bytes, std::string_view charset);

// Whether `s` is valid UTF-8.
bool is_valid_utf8(std::string_view s);

// Appends the UTF-8 bytes of `code_point` (at most U+10FFFF, not a surrogate) to `out`.
void append_utf8(std::string& out, char32_t code_point);

// `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string repair_utf8(std::string_view s);

}  // namespace parley
