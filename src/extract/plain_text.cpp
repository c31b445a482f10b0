#include "extract/plain_text.h"

namespace parley {

ExtractedDocument extract_plain_text(std::string_view utf8) {
  ExtractedDocument doc;
  std::string para;
  auto flush = [&] {
    std::string_view text = trim_space(para);
    if (!text.empty()) doc.blocks.push_back({BlockKind::kParagraph, 0, std::string(text)});
    para.clear();
  };
  size_t pos = 0;
  while (pos <= utf8.size()) {
    size_t eol = utf8.find('\n', pos);
    if (eol == std::string_view::npos) eol = utf8.size();
    std::string_view line = utf8.substr(pos, eol - pos);
    // Trailing white space and a CR go; leading indentation stays with the line.
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    if (trim_space(line).empty()) {
      flush();
    } else {
      if (!para.empty()) para.push_back('\n');
      para.append(line);
    }
    pos = eol + 1;
  }
  flush();
  return doc;
}

char detect_csv_separator(std::string_view utf8) {
  size_t counts[3] = {0, 0, 0};
  const char kSeparators[3] = {',', ';', '\t'};
  bool quoted = false;
  for (char c : utf8) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '\n') break;
    for (int i = 0; i < 3; ++i)
      if (c == kSeparators[i]) ++counts[i];
  }
  int best = 0;
  for (int i = 1; i < 3; ++i)
    if (counts[i] > counts[best]) best = i;
  return kSeparators[best];
}

std::vector<std::vector<std::string>> parse_csv(std::string_view s, char separator) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, field_started = false;
  auto end_field = [&] {
    record.push_back(std::move(field));
    field.clear();
    field_started = false;
  };
  auto end_record = [&] {
    end_field();
    bool empty = record.size() == 1 && record[0].empty();
    if (!empty) records.push_back(std::move(record));
    record.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < s.size() && s[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field.push_back(c);
      }
    } else if (c == '"' && !field_started) {
      quoted = true;
      field_started = true;
    } else if (c == separator) {
      end_field();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      end_record();
    } else {
      field.push_back(c);
      field_started = true;
    }
  }
  if (!field.empty() || !record.empty()) end_record();
  return records;
}

ExtractedDocument extract_csv(std::string_view utf8) {
  ExtractedDocument doc;
  auto records = parse_csv(utf8, detect_csv_separator(utf8));
  if (records.empty()) return doc;
  std::vector<std::string> headers;
  for (const std::string& h : records[0]) {
    std::string header;
    bool at_space = true;
    append_collapsed(header, h, at_space);
    headers.emplace_back(trim_space(header));
  }
  RowLabels labels;
  for (size_t r = 1; r < records.size(); ++r) {
    std::string line;
    for (size_t c = 0; c < records[r].size(); ++c) {
      // A quoted line break and a no-break space read as a space.
      std::string value;
      bool at_space = true;
      append_collapsed(value, records[r][c], at_space);
      std::string_view trimmed = trim_space(value);
      if (trimmed.empty()) continue;
      if (!line.empty()) line += "; ";
      if (c < headers.size() && !headers[c].empty()) {
        labels.append(line, headers[c], trimmed.size());
      } else {
        labels.append(line, "Column " + std::to_string(c + 1), trimmed.size());
      }
      line.append(trimmed);
    }
    if (!line.empty()) doc.blocks.push_back({BlockKind::kTableRow, 0, std::move(line)});
  }
  // A file of one line: its header is all it says.
  if (records.size() == 1) {
    std::string line;
    for (const std::string& h : headers) {
      if (h.empty()) continue;
      if (!line.empty()) line += " | ";
      line += h;
    }
    if (!line.empty()) doc.blocks.push_back({BlockKind::kTableRow, 0, std::move(line)});
  }
  return doc;
}

}  // namespace parley
