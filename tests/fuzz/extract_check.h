// What every extraction must give, checked by the extract_* fuzz targets: either a document of
// non-empty, trimmed, valid UTF-8 blocks (heading levels 1..6, no level elsewhere) whose text
// renders, or a 400 with a message a person can read.
#pragma once

#include <string>
#include <unordered_set>

#include "core/result.h"
#include "extract/charset.h"
#include "extract/document.h"
#include "fuzz_check.h"

namespace parley {

inline void check_document(const ExtractedDocument& doc) {
  FUZZ_CHECK(is_valid_utf8(doc.title));
  for (const TextBlock& block : doc.blocks) {
    FUZZ_CHECK(!block.text.empty());
    FUZZ_CHECK(is_valid_utf8(block.text));
    if (block.kind == BlockKind::kHeading) {
      FUZZ_CHECK(block.level >= 1 && block.level <= 6);
    } else {
      FUZZ_CHECK(block.level == 0);
    }
    if (block.kind != BlockKind::kPreformatted) FUZZ_CHECK(trim_space(block.text) == block.text);
  }
  std::unordered_set<std::string> links;
  for (const std::string& link : doc.links) {
    FUZZ_CHECK(!link.empty());
    FUZZ_CHECK(links.insert(link).second);
  }
  std::string text = render_text(doc);
  FUZZ_CHECK(is_valid_utf8(text));
  if (!doc.blocks.empty()) {
    std::unordered_set<uint64_t> skip = {block_hash(doc.blocks.front())};
    FUZZ_CHECK(render_text(doc, &skip).size() < text.size());
  }
}

inline void check_result(const Result<ExtractedDocument>& result) {
  if (result.ok()) {
    check_document(*result);
  } else {
    FUZZ_CHECK(result.error().code == ErrorCode::kInvalidRequest);
    FUZZ_CHECK(!result.error().message.empty() && result.error().message.back() == '.');
    FUZZ_CHECK(is_valid_utf8(result.error().message));
  }
}

}  // namespace parley
