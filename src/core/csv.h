// A CSV reader (RFC 4180, as spreadsheets write it): fields separated by a delimiter, quoted
// fields that may hold delimiters, doubled quotes and line breaks, CRLF or LF line ends, a UTF-8
// byte order mark skipped. Reads one record at a time from text the caller keeps, so a large
// file is never copied whole. Not thread-safe (one reader per text).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace parley {

class CsvReader {
 public:
  // `delimiter` 0: decided from the first line (the most frequent of ',', ';' and tab outside
  // quotes; ',' when none occurs).
  explicit CsvReader(std::string_view text, char delimiter = 0);

  // The next record into `fields` (reusing their storage); false at the end of the text. An
  // empty line is a record of one empty field. 400 invalid_request for a quoted field that is
  // never closed or is followed by other characters, naming the record.
  Result<bool> next(std::vector<std::string>& fields);
  // The 1-based number of the record next() returned last (the header is record 1).
  size_t record() const { return record_; }
  char delimiter() const { return delimiter_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t record_ = 0;
  char delimiter_;
};

}  // namespace parley
