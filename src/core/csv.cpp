#include "core/csv.h"

namespace parley {

namespace {
char guess_delimiter(std::string_view text) {
  size_t counts[3] = {0, 0, 0};
  constexpr char kCandidates[3] = {',', ';', '\t'};
  bool quoted = false;
  for (char c : text) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '\n' || c == '\r') break;
    for (int i = 0; i < 3; ++i) counts[i] += c == kCandidates[i];
  }
  int best = 0;
  for (int i = 1; i < 3; ++i)
    if (counts[i] > counts[best]) best = i;
  return kCandidates[best];
}
}  // namespace

CsvReader::CsvReader(std::string_view text, char delimiter) : text_(text) {
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);
  delimiter_ = delimiter != 0 ? delimiter : guess_delimiter(text_);
}

Result<bool> CsvReader::next(std::vector<std::string>& fields) {
  if (pos_ >= text_.size()) return false;
  ++record_;
  size_t used = 0;
  auto field = [&]() -> std::string& {
    if (used == fields.size()) fields.emplace_back();
    std::string& f = fields[used++];
    f.clear();
    return f;
  };
  const size_t n = text_.size();
  while (true) {
    std::string& out = field();
    if (pos_ < n && text_[pos_] == '"') {
      ++pos_;
      while (true) {
        size_t quote = text_.find('"', pos_);
        if (quote == std::string_view::npos) {
          return ApiError::invalid("Row " + std::to_string(record_) +
                                   ": a quoted field is never closed.");
        }
        out.append(text_.substr(pos_, quote - pos_));
        pos_ = quote + 1;
        if (pos_ < n && text_[pos_] == '"') {  // a doubled quote
          out.push_back('"');
          ++pos_;
          continue;
        }
        break;
      }
      if (pos_ < n && text_[pos_] != delimiter_ && text_[pos_] != '\r' && text_[pos_] != '\n') {
        return ApiError::invalid(
            "Row " + std::to_string(record_) +
            ": a quoted field is followed by other characters before the next delimiter.");
      }
    } else {
      size_t end = pos_;
      while (end < n && text_[end] != delimiter_ && text_[end] != '\n' && text_[end] != '\r') ++end;
      out.append(text_.substr(pos_, end - pos_));
      pos_ = end;
    }
    if (pos_ < n && text_[pos_] == delimiter_) {
      ++pos_;
      continue;
    }
    // The end of the record: CRLF, LF, a lone CR, or the end of the text.
    if (pos_ < n && text_[pos_] == '\r') ++pos_;
    if (pos_ < n && text_[pos_] == '\n') ++pos_;
    break;
  }
  fields.resize(used);
  return true;
}

}  // namespace parley
