#include "extract/docx_body.h"

#include <pugixml.hpp>
#include <string_view>

#include "extract/charset.h"

namespace parley {

namespace {

constexpr int kMaxNesting = 32;

// The text of every run under `root`, read without recursion. Field codes, deleted text and the
// fallback copy of a drawing's text (Word writes a text box twice) are left out.
std::string runs_text(pugi::xml_node root) {
  std::string out;
  bool at_space = true;
  std::vector<pugi::xml_node> stack{root};
  while (!stack.empty()) {
    pugi::xml_node node = stack.back();
    stack.pop_back();
    std::string_view name = node.name();
    if (name == "w:t") {
      append_collapsed(out, node.text().get(), at_space);
      continue;
    }
    if (name == "w:tab" || name == "w:br" || name == "w:cr") {
      append_collapsed(out, " ", at_space);
      continue;
    }
    if (name == "w:noBreakHyphen") {
      append_collapsed(out, "-", at_space);
      continue;
    }
    if (name == "w:instrText" || name == "w:delText" || name == "mc:Fallback" || name == "w:pPr" ||
        name == "w:rPr")
      continue;
    if (name == "w:p" && node != root) append_collapsed(out, " ", at_space);
    for (pugi::xml_node c = node.last_child(); c; c = c.previous_sibling()) stack.push_back(c);
  }
  return std::string(trim_space(out));
}

class BodyReader {
 public:
  BodyReader(const std::unordered_map<std::string, DocxStyle>& styles,
             std::vector<TextBlock>& blocks)
      : styles_(styles), blocks_(blocks) {}

  void container(pugi::xml_node node, int depth) {
    if (depth > kMaxNesting) {
      add(BlockKind::kParagraph, 0, runs_text(node));
      return;
    }
    for (pugi::xml_node c : node.children()) {
      std::string_view name = c.name();
      if (name == "w:p") {
        paragraph(c);
      } else if (name == "w:tbl") {
        table(c);
      } else if (name == "w:sdt") {
        container(c.child("w:sdtContent"), depth + 1);
      } else if (name == "w:customXml" || name == "w:ins" || name == "w:smartTag") {
        container(c, depth + 1);
      }
    }
  }

 private:
  void add(BlockKind kind, int level, std::string text) {
    if (!text.empty())
      blocks_.push_back({kind, kind == BlockKind::kHeading ? level : 0, std::move(text)});
  }

  DocxStyle style_of(pugi::xml_node ppr) const {
    DocxStyle s;
    std::string id = ppr.child("w:pStyle").attribute("w:val").value();
    if (!id.empty()) {
      auto it = styles_.find(id);
      if (it != styles_.end()) {
        s = it->second;
      } else {
        std::string lower = id;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == "title") s.heading_level = 1;
        if (lower.size() == 8 && lower.starts_with("heading") && lower[7] >= '1' && lower[7] <= '9')
          s.heading_level = std::min(6, lower[7] - '0');
        s.list = lower.starts_with("list");
      }
    }
    if (pugi::xml_node outline = ppr.child("w:outlineLvl")) {
      int level = outline.attribute("w:val").as_int(9);
      if (level >= 0 && level < 6) s.heading_level = level + 1;
    }
    if (ppr.child("w:numPr")) s.list = true;
    return s;
  }

  void paragraph(pugi::xml_node p) {
    DocxStyle s = style_of(p.child("w:pPr"));
    std::string text = runs_text(p);
    if (s.heading_level > 0) {
      add(BlockKind::kHeading, s.heading_level, std::move(text));
    } else {
      add(s.list ? BlockKind::kListItem : BlockKind::kParagraph, 0, std::move(text));
    }
  }

  void table(pugi::xml_node tbl) {
    std::vector<std::string> headers;
    bool data_seen = false;
    for (pugi::xml_node tr : tbl.children("w:tr")) {
      std::vector<std::string> cells;
      for (pugi::xml_node tc : tr.children("w:tc")) cells.push_back(runs_text(tc));
      bool any = false;
      for (const std::string& c : cells) any = any || !c.empty();
      if (!any) continue;
      if (!data_seen && tr.child("w:trPr").child("w:tblHeader") && cells.size() >= 2) {
        headers = std::move(cells);
        continue;
      }
      data_seen = true;
      std::string line;
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].empty()) continue;
        if (!line.empty()) line += headers.empty() ? " | " : "; ";
        if (i < headers.size() && !headers[i].empty())
          labels_.append(line, headers[i], cells[i].size());
        line += cells[i];
      }
      add(BlockKind::kTableRow, 0, std::move(line));
    }
  }

  const std::unordered_map<std::string, DocxStyle>& styles_;
  std::vector<TextBlock>& blocks_;
  RowLabels labels_;
};

}  // namespace

Result<void> read_docx_body(const std::string& document_xml,
                            const std::unordered_map<std::string, DocxStyle>& styles,
                            std::vector<TextBlock>& blocks) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_buffer(document_xml.data(), document_xml.size(),
                                                  pugi::parse_default, pugi::encoding_utf8);
  if (!parsed)
    return ApiError::invalid(
        std::string("The file is damaged: word/document.xml does not parse (") +
        parsed.description() + ").");
  pugi::xml_node body = doc.child("w:document").child("w:body");
  if (!body) return ApiError::invalid("The file is damaged: word/document.xml has no body.");
  size_t first = blocks.size();
  BodyReader(styles, blocks).container(body, 0);
  // pugixml passes bytes through unchecked (and writes &#xD800; as a surrogate's bytes).
  for (size_t i = first; i < blocks.size(); ++i)
    if (!is_valid_utf8(blocks[i].text)) blocks[i].text = repair_utf8(blocks[i].text);
  return ok_result();
}

}  // namespace parley
