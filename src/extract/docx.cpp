#include "extract/docx.h"

#include <zip.h>

#include <cstring>
#include <memory>
#include <pugixml.hpp>
#include <string>
#include <unordered_map>

#include "extract/docx_body.h"

namespace parley {

namespace {

const ApiError kTooMuch = ApiError::invalid("The archive expands too much.");

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct FileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

// Reads entries of one archive under the bomb caps.
class ZipReader {
 public:
  ZipReader(zip_t* zip, const ExtractLimits& limits) : zip_(zip), limits_(limits) {}

  // The entry's bytes; nullopt (no error) when the archive has no such entry.
  Result<std::optional<std::string>> read(const char* name) {
    zip_int64_t index = zip_name_locate(zip_.get(), name, ZIP_FL_NOCASE);
    if (index < 0) return std::optional<std::string>();
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip_.get(), static_cast<zip_uint64_t>(index), 0, &st) != 0 ||
        !(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE))
      return ApiError::invalid(std::string("The file is damaged: ") + name + " cannot be read.");
    // Before inflating: what the archive declares.
    if (!within_caps(st.size, st.comp_size)) return kTooMuch;
    std::unique_ptr<zip_file_t, FileCloser> file(
        zip_fopen_index(zip_.get(), static_cast<zip_uint64_t>(index), 0));
    if (!file)
      return ApiError::invalid(std::string("The file is damaged: ") + name + " cannot be read.");
    // While inflating: what it really holds, whatever it declared.
    std::string out;
    out.reserve(static_cast<size_t>(std::min<zip_uint64_t>(st.size, 1 << 20)));
    char buf[64 * 1024];
    while (true) {
      zip_int64_t n = zip_fread(file.get(), buf, sizeof buf);
      if (n < 0)
        return ApiError::invalid(std::string("The file is damaged: ") + name +
                                 " cannot be inflated.");
      if (n == 0) break;
      out.append(buf, static_cast<size_t>(n));
      if (!within_caps(out.size(), st.comp_size)) return kTooMuch;
    }
    expanded_ += out.size();
    return std::optional<std::string>(std::move(out));
  }

 private:
  bool within_caps(zip_uint64_t size, zip_uint64_t comp_size) const {
    if (expanded_ + size > limits_.max_expanded_bytes) return false;
    if (size > 4096 &&
        static_cast<double>(size) > limits_.max_ratio * static_cast<double>(comp_size))
      return false;
    return true;
  }

  std::unique_ptr<zip_t, ZipCloser> zip_;
  const ExtractLimits& limits_;
  size_t expanded_ = 0;
};

// styleId -> heading level (1..6) or list style, from word/styles.xml.
std::unordered_map<std::string, DocxStyle> read_styles(const std::string& xml) {
  std::unordered_map<std::string, DocxStyle> styles;
  pugi::xml_document doc;
  if (!doc.load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_utf8))
    return styles;
  for (pugi::xml_node style : doc.child("w:styles").children("w:style")) {
    std::string id = style.attribute("w:styleId").value();
    std::string name = style.child("w:name").attribute("w:val").value();
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    DocxStyle s;
    if (name == "title") {
      s.heading_level = 1;
    } else if (name.starts_with("heading ") && name.size() == 9 && name[8] >= '1' &&
               name[8] <= '9') {
      s.heading_level = std::min(6, name[8] - '0');
    } else if (pugi::xml_node outline = style.child("w:pPr").child("w:outlineLvl")) {
      int level = outline.attribute("w:val").as_int(9);
      if (level >= 0 && level < 6) s.heading_level = level + 1;
    }
    s.list = name.starts_with("list");
    styles[id] = s;
  }
  return styles;
}

std::string read_title(const std::string& xml) {
  pugi::xml_document doc;
  if (!doc.load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_utf8)) return "";
  for (pugi::xml_node node : doc.first_child().children()) {
    std::string_view name = node.name();
    if (name == "dc:title" || name.ends_with(":title") || name == "title") {
      std::string title;
      bool at_space = true;
      append_collapsed(title, node.text().get(), at_space);
      return std::string(trim_space(title));
    }
  }
  return "";
}

}  // namespace

Result<ExtractedDocument> extract_docx(std::string_view bytes, const ExtractLimits& limits) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (source == nullptr) {
    zip_error_fini(&error);
    return ApiError::invalid("The file is damaged: it cannot be read as a zip archive.");
  }
  zip_t* zip = zip_open_from_source(source, ZIP_RDONLY, &error);
  zip_error_fini(&error);
  if (zip == nullptr) {
    zip_source_free(source);
    return ApiError::invalid("The file is damaged: it cannot be read as a zip archive.");
  }
  ZipReader reader(zip, limits);
  PARLEY_ASSIGN_OR_RETURN(std::optional<std::string> body, reader.read("word/document.xml"));
  if (!body) return ApiError::invalid("The file is damaged: it holds no word/document.xml.");
  PARLEY_ASSIGN_OR_RETURN(std::optional<std::string> styles_xml, reader.read("word/styles.xml"));
  PARLEY_ASSIGN_OR_RETURN(std::optional<std::string> core_xml, reader.read("docProps/core.xml"));
  std::unordered_map<std::string, DocxStyle> styles;
  if (styles_xml) styles = read_styles(*styles_xml);
  ExtractedDocument out;
  PARLEY_TRY(read_docx_body(*body, styles, out.blocks));
  if (core_xml) out.title = read_title(*core_xml);
  repair_document_utf8(out);
  if (out.title.empty()) {
    for (const TextBlock& block : out.blocks) {
      if (block.kind == BlockKind::kHeading) {
        out.title = block.text;
        break;
      }
    }
  }
  return out;
}

}  // namespace parley
