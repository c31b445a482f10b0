// Reads plain text and CSV (both already decoded to UTF-8 by extract/charset.h).
// Plain text: paragraphs at blank lines, the lines of a paragraph kept as written.
// CSV (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes; the separator is
// ',', ';' or a tab, whichever the first line holds most of outside quotes): the first row names
// the columns, and every other row becomes one table-row block "Header: value; Header: value"
// (empty values left out), so a product list reads as facts.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "extract/document.h"

namespace parley {

ExtractedDocument extract_plain_text(std::string_view utf8);

ExtractedDocument extract_csv(std::string_view utf8);

// The records of a CSV text, each a list of fields, read with `separator`.
std::vector<std::vector<std::string>> parse_csv(std::string_view utf8, char separator);

// ',', ';' or '\t': the one the first record holds most of outside quotes (',' on a tie).
char detect_csv_separator(std::string_view utf8);

}  // namespace parley
