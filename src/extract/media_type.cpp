#include "extract/media_type.h"

#include <algorithm>
#include <array>
#include <utility>

namespace parley {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (lower(s[i]) != prefix[i]) return false;
  return true;
}

SniffedType named(MediaType type) {
  switch (type) {
    case MediaType::kHtml:
      return {type, "text/html"};
    case MediaType::kPdf:
      return {type, "application/pdf"};
    case MediaType::kDocx:
      return {type, std::string(kDocxMediaType)};
    case MediaType::kMarkdown:
      return {type, "text/markdown"};
    case MediaType::kPlainText:
      return {type, "text/plain"};
    case MediaType::kCsv:
      return {type, "text/csv"};
    case MediaType::kUnsupported:
      break;
  }
  return {MediaType::kUnsupported, "application/octet-stream"};
}

// Formats recognised by their first bytes that no reader handles.
const char* binary_signature(std::string_view b) {
  static const std::array<std::pair<std::string_view, const char*>, 14> kSignatures = {{
      {"\x89PNG\r\n\x1A\n", "image/png"},
      {"\xFF\xD8\xFF", "image/jpeg"},
      {"GIF87a", "image/gif"},
      {"GIF89a", "image/gif"},
      {"BM", "image/bmp"},
      {std::string_view("\x00\x00\x01\x00", 4), "image/x-icon"},
      {"II*", "image/tiff"},
      {std::string_view("MM\x00*", 4), "image/tiff"},
      {"\x1F\x8B", "application/gzip"},
      {"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", "application/x-ole-storage"},
      {"%!PS", "application/postscript"},
      {"\x7F"
       "ELF",
       "application/octet-stream"},
      {"ID3", "audio/mpeg"},
      {"OggS", "audio/ogg"},
  }};
  for (const auto& [magic, name] : kSignatures)
    if (b.starts_with(magic)) return name;
  if (b.size() >= 12 && b.starts_with("RIFF")) {
    std::string_view kind = b.substr(8, 4);
    if (kind == "WEBP") return "image/webp";
    if (kind == "WAVE") return "audio/wav";
    if (kind == "AVI ") return "video/x-msvideo";
  }
  if (b.size() >= 12 && b.substr(4, 4) == "ftyp") return "video/mp4";
  return nullptr;
}

// WHATWG's binary data bytes: control characters that no text holds.
bool looks_binary(std::string_view b) {
  std::string_view head = b.substr(0, 4096);
  for (unsigned char c : head)
    if (c <= 0x08 || c == 0x0B || (c >= 0x0E && c <= 0x1A) || (c >= 0x1C && c <= 0x1F)) return true;
  return false;
}

std::string_view skip_space(std::string_view s) {
  size_t i = 0;
  while (i < s.size() &&
         (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f'))
    ++i;
  return s.substr(i);
}

// "<!doctype html" or "<html": HTML whatever the name or declared type say.
bool strong_html(std::string_view text) {
  text = skip_space(text);
  return starts_with_nocase(text, "<!doctype html") || starts_with_nocase(text, "<html");
}

// Tags WHATWG's sniffing takes for HTML; weaker evidence (a Markdown file may open with one), so
// they decide only when neither the declared type nor the name does.
bool weak_html(std::string_view text) {
  text = skip_space(text);
  static const std::array<std::string_view, 18> kTags = {
      "<head",  "<body",  "<script", "<iframe", "<h1", "<div", "<font", "<table", "<a",
      "<style", "<title", "<b",      "<br",     "<p",  "<!--", "<meta", "<link",  "<?xml"};
  for (std::string_view tag : kTags) {
    if (!starts_with_nocase(text, tag)) continue;
    if (tag == "<!--" || tag == "<?xml") return tag == "<!--";
    char next = text.size() > tag.size() ? text[tag.size()] : '\0';
    if (next == ' ' || next == '>' || next == '\t' || next == '\n' || next == '\r' || next == '/')
      return true;
  }
  return false;
}

MediaType from_declared(const std::string& essence, bool& known) {
  known = true;
  if (essence == "text/html" || essence == "application/xhtml+xml") return MediaType::kHtml;
  if (essence == "application/pdf" || essence == "application/x-pdf") return MediaType::kPdf;
  if (essence == kDocxMediaType) return MediaType::kDocx;
  if (essence == "text/markdown" || essence == "text/x-markdown") return MediaType::kMarkdown;
  if (essence == "text/csv" || essence == "application/csv") return MediaType::kCsv;
  known = false;
  return MediaType::kUnsupported;
}

MediaType from_extension(std::string_view filename, bool& known) {
  known = true;
  size_t dot = filename.rfind('.');
  size_t slash = filename.find_last_of("/\\");
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    known = false;
    return MediaType::kUnsupported;
  }
  std::string ext = to_lower(filename.substr(dot + 1));
  if (ext == "md" || ext == "markdown") return MediaType::kMarkdown;
  if (ext == "csv") return MediaType::kCsv;
  if (ext == "txt" || ext == "text") return MediaType::kPlainText;
  if (ext == "html" || ext == "htm" || ext == "xhtml") return MediaType::kHtml;
  if (ext == "pdf") return MediaType::kPdf;
  if (ext == "docx") return MediaType::kDocx;
  known = false;
  return MediaType::kUnsupported;
}

}  // namespace

std::string mime_essence(std::string_view content_type) {
  size_t semi = content_type.find(';');
  std::string_view essence = content_type.substr(0, semi);
  while (!essence.empty() && (essence.back() == ' ' || essence.back() == '\t'))
    essence.remove_suffix(1);
  return to_lower(skip_space(essence));
}

SniffedType sniff_media_type(std::string_view bytes, std::string_view content_type,
                             std::string_view filename) {
  std::string declared = mime_essence(content_type);
  // Content first.
  if (bytes.substr(0, 1024).find("%PDF-") != std::string_view::npos) return named(MediaType::kPdf);
  if (bytes.starts_with("PK\x03\x04") || bytes.starts_with("PK\x05\x06")) {
    if (bytes.find("word/document.xml") != std::string_view::npos) return named(MediaType::kDocx);
    return {MediaType::kUnsupported, "application/zip"};
  }
  bool bom = bytes.starts_with("\xEF\xBB\xBF") || bytes.starts_with("\xFF\xFE") ||
             bytes.starts_with("\xFE\xFF");
  if (!bom) {
    if (const char* signature = binary_signature(bytes))
      return {MediaType::kUnsupported, signature};
    if (looks_binary(bytes)) {
      bool known = false;
      MediaType type = from_declared(declared, known);
      // A declared PDF or DOCX without its signature is a damaged one: its reader says so.
      if (known && (type == MediaType::kPdf || type == MediaType::kDocx)) return named(type);
      bool informative = !declared.empty() && declared != "application/octet-stream" &&
                         !declared.starts_with("text/");
      return {MediaType::kUnsupported, informative ? declared : "application/octet-stream"};
    }
  }
  std::string_view text = bytes;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (strong_html(text)) return named(MediaType::kHtml);
  // Then the declared type.
  bool known = false;
  MediaType type = from_declared(declared, known);
  if (known) return named(type);
  bool generic = declared.empty() || declared == "application/octet-stream" ||
                 declared == "text/plain" || declared == "binary/octet-stream";
  if (!generic && !declared.starts_with("text/")) return {MediaType::kUnsupported, declared};
  // Then the name.
  type = from_extension(filename, known);
  if (known) return named(type);
  if (declared.empty() || declared == "application/octet-stream") {
    if (weak_html(text)) return named(MediaType::kHtml);
  }
  return named(MediaType::kPlainText);
}

}  // namespace parley
