#include "extract/extract.h"

#include "extract/charset.h"
#include "extract/docx.h"
#include "extract/html.h"
#include "extract/isolated_reader.h"
#include "extract/markdown.h"
#include "extract/plain_text.h"

namespace parley {

namespace {

size_t count_chars(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The byte length of the first `chars` characters of `s`.
size_t prefix_bytes(std::string_view s, size_t chars) {
  size_t i = 0, n = 0;
  while (i < s.size()) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (n == chars) break;
      ++n;
    }
    ++i;
  }
  return i;
}

Result<ExtractedDocument> read(const SniffedType& type, const ExtractInput& in,
                               const ExtractLimits& limits) {
  switch (type.type) {
    case MediaType::kPdf:
      return read_pdf(in.bytes, limits);
    case MediaType::kDocx:
      return extract_docx(in.bytes, limits);
    case MediaType::kHtml:
      return extract_html(decode_text(in.bytes, in.content_type, true).text);
    case MediaType::kMarkdown:
      return extract_markdown(decode_text(in.bytes, in.content_type, false).text);
    case MediaType::kCsv:
      return extract_csv(decode_text(in.bytes, in.content_type, false).text);
    case MediaType::kPlainText:
      return extract_plain_text(decode_text(in.bytes, in.content_type, false).text);
    case MediaType::kUnsupported:
      break;
  }
  return ApiError::invalid("Not text: " + type.name + ".");
}

}  // namespace

void cut_to_limit(ExtractedDocument& doc, size_t max_chars) {
  size_t total = 0;
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    size_t n = count_chars(doc.blocks[i].text);
    if (total + n > max_chars) {
      if (i == 0) {
        std::string& text = doc.blocks[0].text;
        text = std::string(
            trim_space(std::string_view(text).substr(0, prefix_bytes(text, max_chars))));
        if (!text.empty()) ++i;
      }
      doc.blocks.resize(i);
      return;
    }
    total += n;
  }
}

Result<ExtractedDocument> extract_document(const ExtractInput& in, const ExtractLimits& limits) {
  SniffedType type = sniff_media_type(in.bytes, in.content_type, in.filename);
  PARLEY_ASSIGN_OR_RETURN(ExtractedDocument doc, read(type, in, limits));
  cut_to_limit(doc, limits.max_text_chars);
  bool any = false;
  for (const TextBlock& block : doc.blocks) any = any || !block.text.empty();
  // An HTML page without text still has links to follow; other documents without text are empty.
  if (!any && type.type != MediaType::kHtml) return ApiError::invalid("No text found.");
  return doc;
}

}  // namespace parley
