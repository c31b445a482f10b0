#include "extract/pdf.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>

#include <memory>
#include <mutex>
#include <string>

namespace parley {

namespace {

void ignore_poppler_message(const std::string&, void*) {}

void silence_poppler() {
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function(&ignore_poppler_message, nullptr); });
}

std::string utf8_of(const poppler::ustring& s) {
  poppler::byte_array bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

bool is_lower_start(std::string_view s) { return !s.empty() && s[0] >= 'a' && s[0] <= 'z'; }

}  // namespace

void append_page_paragraphs(std::string_view page_text, std::vector<TextBlock>& blocks) {
  std::string para;
  bool at_space = true;
  auto flush = [&] {
    std::string_view text = trim_space(para);
    if (!text.empty()) blocks.push_back({BlockKind::kParagraph, 0, std::string(text)});
    para.clear();
    at_space = true;
  };
  size_t pos = 0;
  while (pos <= page_text.size()) {
    size_t eol = page_text.find_first_of("\n\f", pos);
    if (eol == std::string_view::npos) eol = page_text.size();
    std::string_view line = trim_space(page_text.substr(pos, eol - pos));
    if (line.empty()) {
      flush();
    } else {
      // "exam-" at a line's end and "ple" next: one word.
      if (para.size() >= 2 && para.back() == '-' && para[para.size() - 2] != ' ' &&
          is_lower_start(line)) {
        para.pop_back();
        at_space = false;
      } else if (!para.empty()) {
        append_collapsed(para, " ", at_space);
      }
      append_collapsed(para, line, at_space);
    }
    if (eol < page_text.size() && page_text[eol] == '\f') flush();
    pos = eol + 1;
  }
  flush();
}

Result<ExtractedDocument> extract_pdf(std::string_view bytes, const ExtractLimits& limits) {
  silence_poppler();
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    return ApiError::invalid("The file is damaged: the PDF is too large to read.");
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
  if (!doc) return ApiError::invalid("The file is damaged: it cannot be read as a PDF.");
  if (doc->is_locked()) return ApiError::invalid("The PDF is encrypted.");
  int pages = doc->pages();
  if (pages <= 0) return ApiError::invalid("The file is damaged: the PDF has no pages.");
  if (pages > limits.max_pdf_pages)
    return ApiError::invalid("The PDF has " + std::to_string(pages) + " pages; at most " +
                             std::to_string(limits.max_pdf_pages) + " are read.");
  ExtractedDocument out;
  out.title = std::string(trim_space(utf8_of(doc->info_key("Title"))));
  for (int i = 0; i < pages; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    if (!page) continue;
    std::string text =
        utf8_of(page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout));
    append_page_paragraphs(text, out.blocks);
  }
  if (out.blocks.empty()) return ApiError::invalid("No text found: the PDF holds only images.");
  repair_document_utf8(out);
  return out;
}

}  // namespace parley
