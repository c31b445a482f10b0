// Writers of small PDF and DOCX files for the extractor's tests (poppler has no writer): a PDF
// with text pages, image-only pages, an info title or a locked encryption dictionary, and a zip
// archive with any entries (a DOCX is one with word/document.xml). Used by the unit tests, the
// micro benchmark and the generator of the fuzz corpora.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace parley::testing {

struct PdfPage {
  std::vector<std::string> lines;  // each a line of text; an empty string leaves a gap
  bool image = false;              // draws a 1x1 image (and no text when `lines` is empty)
};

struct PdfOptions {
  std::string title;       // the document information's /Title, when not empty
  bool encrypted = false;  // an /Encrypt dictionary no empty password opens
};

// A well-formed PDF 1.4 (xref table with exact offsets), Helvetica text, 612x792 pages.
std::string make_pdf(const std::vector<PdfPage>& pages, const PdfOptions& options = {});

// A one-page PDF whose page draws a form `fanout` times, that form the next one as often, and so
// on `depth` forms down to a word of text: fanout^depth words from a file of a few kilobytes
// (depth 5, fanout 16: minutes of poppler's CPU and hundreds of MB).
std::string make_pdf_of_nested_forms(int depth, int fanout);

// A zip archive (deflated entries) of (name, content) pairs, written through libzip.
std::string make_zip(const std::vector<std::pair<std::string, std::string>>& entries);

// word/document.xml around `body_xml` (the children of <w:body>).
std::string docx_document_xml(const std::string& body_xml);

// A .docx: word/document.xml of `body_xml`, plus docProps/core.xml with `title` when not empty
// and word/styles.xml when `styles_xml` is not empty, and [Content_Types].xml.
std::string make_docx(const std::string& body_xml, const std::string& title = "",
                      const std::string& styles_xml = "");

// <w:p> of one run of `text`, with the paragraph style `style` when not empty.
std::string docx_paragraph(const std::string& text, const std::string& style = "");

}  // namespace parley::testing
