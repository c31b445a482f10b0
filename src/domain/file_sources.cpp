// A file to a `file` source: its type sniffed, its text extracted and rendered, its title chosen.
#include "domain/file_sources.h"

#include <algorithm>

#include "core/json.h"
#include "domain/agents.h"
#include "extract/extract.h"

namespace parley {

namespace {

constexpr size_t kMaxFilenameChars = 255;

// The byte length of the first `chars` code points of `s`.
size_t prefix_bytes(std::string_view s, size_t chars) {
  size_t i = 0, n = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (n == chars) break;
    ++n;
  }
  return i;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The characters of a document's blocks, without the blank lines render_text puts between them.
size_t block_chars(const ExtractedDocument& doc) {
  size_t n = 0;
  for (const auto& b : doc.blocks) n += utf8_length(b.text);
  return n;
}

}  // namespace

std::string file_display_name(std::string_view sent) {
  size_t slash = sent.find_last_of("/\\");
  if (slash != std::string_view::npos) sent.remove_prefix(slash + 1);
  std::string name;
  for (char c : sent) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) name.push_back(c);
  }
  std::string_view kept = trim_spaces(name);
  return std::string(kept.substr(0, prefix_bytes(kept, kMaxFilenameChars)));
}

Result<NewSource> read_file_source(const UploadedFile& file, const ExtractLimits& limits) {
  std::string filename = file_display_name(file.filename);
  SniffedType type = sniff_media_type(file.bytes, file.content_type, filename);
  if (type.type == MediaType::kUnsupported) {
    return ApiError::invalid("Unsupported file type: " + type.name + ".");
  }
  ExtractLimits within = limits;
  within.max_text_chars = std::min(within.max_text_chars, kMaxContentChars);
  PARLEY_ASSIGN_OR_RETURN(ExtractedDocument doc,
                          extract_document({file.bytes, file.content_type, filename}, within));
  std::string text = render_text(doc);
  // render_text adds the blank lines between blocks; when they take the text past what a source
  // holds, fewer blocks are kept: the blocks' share of what fits, separators in proportion, until
  // it fits (a file of a million one-letter paragraphs has twice as many separators as letters).
  for (size_t total = utf8_length(text); total > kMaxContentChars; total = utf8_length(text)) {
    size_t blocks = block_chars(doc);
    if (blocks == 0) break;
    size_t keep = std::min(blocks - 1, blocks * kMaxContentChars / total);
    cut_to_limit(doc, keep);
    text = render_text(doc);
  }
  if (is_blank(text)) return ApiError::invalid("No text found in the file.");
  NewSource n;
  n.type = "file";
  if (!filename.empty()) n.filename = filename;
  std::string_view title = trim_spaces(doc.title);
  if (title.empty()) title = filename;
  if (!title.empty()) n.title = std::string(title.substr(0, prefix_bytes(title, kMaxTitleChars)));
  n.content = std::move(text);
  return n;
}

Result<SourceAdded> add_file_source(Services& s, std::string_view account_id,
                                    std::string_view agent_id, const UploadedFile& file,
                                    SourceListener* listener, const ExtractLimits& limits) {
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_TRY(get_agent(c, account_id, agent_id));  // before the file's bytes are read
  }
  PARLEY_ASSIGN_OR_RETURN(NewSource n, read_file_source(file, limits));
  return add_source(s, account_id, agent_id, n, listener);
}

}  // namespace parley
