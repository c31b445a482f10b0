// Which reader a document needs, decided from its content first (magic bytes: "%PDF-", a zip
// holding word/document.xml, "<!doctype html"/"<html", UTF-8/UTF-16 byte order marks, binary or
// text), then from the declared Content-Type, then from the file name's extension (.md/.markdown,
// .csv, .txt, .html/.htm, .pdf, .docx). docs/decisions/extraction.md has the whole order.
// Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace parley {

enum class MediaType { kHtml, kPdf, kDocx, kMarkdown, kPlainText, kCsv, kUnsupported };

struct SniffedType {
  MediaType type;
  // "text/html", "application/pdf", ... or, for kUnsupported, the type's name ("image/png",
  // "application/zip", the declared type, else "application/octet-stream").
  std::string name;
};

SniffedType sniff_media_type(std::string_view bytes, std::string_view content_type,
                             std::string_view filename);

// The media type of a Content-Type value, lower case, without parameters ("text/html").
std::string mime_essence(std::string_view content_type);

inline constexpr std::string_view kDocxMediaType =
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

}  // namespace parley
