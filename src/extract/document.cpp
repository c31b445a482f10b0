#include "extract/document.h"

#include <unicode/unistr.h>

#include "extract/charset.h"

namespace parley {

namespace {

bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool joins_previous(BlockKind kind, BlockKind previous) {
  return kind == previous && (kind == BlockKind::kListItem || kind == BlockKind::kTableRow);
}

}  // namespace

void RowLabels::append(std::string& line, std::string_view label, size_t value_size) {
  values_ += value_size;
  if (labels_ + label.size() + 2 > 2 * values_ + kSlack) return;
  labels_ += label.size() + 2;
  line.append(label);
  line += ": ";
}

std::string_view trim_space(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_ascii_space(s[b])) ++b;
  while (e > b && is_ascii_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

void append_collapsed(std::string& out, std::string_view text, bool& at_space) {
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool space = is_ascii_space(c);
    // U+00A0 NO-BREAK SPACE (C2 A0): &nbsp; decoded.
    if (!space && c == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0') {
      space = true;
      ++i;
    }
    if (space) {
      if (!at_space) out.push_back(' ');
      at_space = true;
    } else {
      out.push_back(c);
      at_space = false;
    }
  }
}

std::string fold_block_text(std::string_view text) {
  std::string collapsed;
  collapsed.reserve(text.size());
  bool at_space = true;
  append_collapsed(collapsed, text, at_space);
  while (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
  bool ascii = true;
  for (char c : collapsed) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) {
    for (char& c : collapsed)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return collapsed;
  }
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(collapsed);
  u.foldCase();
  std::string folded;
  u.toUTF8String(folded);
  return folded;
}

uint64_t block_hash(const TextBlock& block) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64
  for (unsigned char c : fold_block_text(block.text)) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

void repair_document_utf8(ExtractedDocument& doc) {
  if (!is_valid_utf8(doc.title)) doc.title = repair_utf8(doc.title);
  for (TextBlock& block : doc.blocks)
    if (!is_valid_utf8(block.text)) block.text = repair_utf8(block.text);
}

std::string render_text(const ExtractedDocument& doc, const std::unordered_set<uint64_t>* skip) {
  std::string out;
  const TextBlock* previous = nullptr;
  for (const TextBlock& block : doc.blocks) {
    if (block.text.empty()) continue;
    if (skip != nullptr && !skip->empty() && skip->count(block_hash(block)) > 0) continue;
    if (previous != nullptr) out += joins_previous(block.kind, previous->kind) ? "\n" : "\n\n";
    out += block.text;
    previous = &block;
  }
  return out;
}

}  // namespace parley
