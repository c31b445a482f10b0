// What the extractors make of a document: its title and its main content as typed blocks in
// reading order (headings, paragraphs, list items, table rows, preformatted text), plus what an
// HTML page says about itself (links, canonical address, robots directives). `render_text` writes
// a document as a source's text; `block_hash` names a block's text so repeated template text
// (menus, cookie banners, footers) can be recognised across a site's pages.
// Plain data and pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace parley {

enum class BlockKind { kHeading, kParagraph, kListItem, kTableRow, kPreformatted };

struct TextBlock {
  BlockKind kind;
  int level = 0;  // heading level 1..6; 0 for other kinds
  std::string text;
};

struct ExtractedDocument {
  std::string title;                       // <title>, else first heading; PDF/DOCX metadata title,
                                           // else first heading
  std::vector<TextBlock> blocks;           // the main content in reading order
  std::vector<std::string> links;          // HTML: href values as written (trimmed), in document
                                           // order, deduplicated
  std::optional<std::string> canonical;    // HTML: <link rel="canonical" href>
  std::optional<std::string> base_href;    // HTML: <base href>
  bool noindex = false, nofollow = false;  // HTML: <meta name="robots" content="noindex, nofollow">
};

// A stable 64-bit hash (FNV-1a, the same in every process and release) of the block's text after
// Unicode case folding and with every run of white space made one space, trimmed. The kind and
// level do not count: "Contact" as a heading and as a paragraph hash alike.
uint64_t block_hash(const TextBlock& block);

// The text of `text` as block_hash folds it (exposed for tests and for callers that hash text).
std::string fold_block_text(std::string_view text);

// Source text: each block's text with a blank line between blocks, so a heading stands on a line
// of its own; consecutive list items, and consecutive table rows, stay on consecutive lines (one
// paragraph per list or table, so a chunk keeps a list with its heading). Blocks whose
// block_hash is in `skip` are left out (a site's template text).
std::string render_text(const ExtractedDocument& doc,
                        const std::unordered_set<uint64_t>* skip = nullptr);

// Appends `text` to `out` with every run of white space (ASCII and U+00A0) made one space;
// `at_space` says whether `out` already ends in a space (or is at a start) and is kept up to date.
void append_collapsed(std::string& out, std::string_view text, bool& at_space);

// Replaces invalid UTF-8 in the title and blocks with U+FFFD (readers whose libraries pass bytes
// through unchecked: pugixml, poppler).
void repair_document_utf8(ExtractedDocument& doc);

// `s` without leading and trailing ASCII white space.
std::string_view trim_space(std::string_view s);

// The column labels a table's values are read with ("Adult ticket: 45 EUR"), one per document. A
// label is repeated on every row, so a long header over many short rows would multiply the text
// (a 100,000-character header over 40,000 rows of one letter: 4 GB of text from a 180 KB file):
// labels may add at most twice the text of the values labelled, plus kSlack, to a document; past
// that, values are read without their labels.
class RowLabels {
 public:
  static constexpr size_t kSlack = 10'000;
  // Appends "label: " to `line` for a value of `value_size` bytes, while the allowance lasts.
  void append(std::string& line, std::string_view label, size_t value_size);

 private:
  size_t values_ = 0;
  size_t labels_ = 0;
};

}  // namespace parley
