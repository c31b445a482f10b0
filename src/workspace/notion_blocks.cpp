#include "workspace/notion_blocks.h"

#include <cctype>
#include <string_view>

#include "core/json.h"

namespace parley {

namespace {
const rapidjson::Value* member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

bool bool_member(const rapidjson::Value& object, const char* name) {
  const rapidjson::Value* v = member(object, name);
  return v != nullptr && v->IsBool() && v->GetBool();
}

// Trims white space at both ends and folds blank lines inside into single line breaks, so a
// block's text never splits into two paragraphs of the source.
std::string tidy(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  std::string out;
  out.reserve(e - b);
  for (size_t i = b; i < e; ++i) {
    if (s[i] == '\r') continue;
    if (s[i] == '\n' && !out.empty() && out.back() == '\n') continue;
    out.push_back(s[i]);
  }
  return out;
}

bool is_list_item(const std::string& type) {
  return type == "bulleted_list_item" || type == "numbered_list_item" || type == "to_do";
}

bool is_heading(const std::string& type) {
  return type == "heading_1" || type == "heading_2" || type == "heading_3";
}

// Blocks that only hold other blocks.
bool is_container(const std::string& type) {
  return type == "column_list" || type == "column" || type == "synced_block" || type == "template";
}

std::string table_row_line(const NotionBlock& row, const std::vector<std::string>* names,
                           bool row_header) {
  std::string out;
  if (names != nullptr) {
    for (size_t i = 0; i < row.cells.size(); ++i) {
      std::string value = tidy(row.cells[i]);
      if (value.empty()) continue;
      std::string name = i < names->size() ? tidy((*names)[i]) : std::string();
      if (!out.empty()) out += "; ";
      if (!name.empty()) out.append(name).append(": ");
      out += value;
    }
    return out;
  }
  for (size_t i = 0; i < row.cells.size(); ++i) {
    std::string value = tidy(row.cells[i]);
    if (value.empty()) continue;
    if (!out.empty()) out += (row_header && i == 1) ? ": " : " | ";
    out += value;
  }
  return out;
}

class Renderer {
 public:
  std::string finish() {
    close_lines();
    std::string out;
    for (const auto& p : paragraphs_) {
      if (!out.empty()) out += "\n\n";
      out += p;
    }
    return out;
  }

  void blocks(const std::vector<NotionBlock>& list) {
    int number = 0;
    for (const auto& b : list) {
      number = b.type == "numbered_list_item" ? number + 1 : 0;
      block(b, number);
    }
  }

 private:
  void paragraph(std::string text) {
    close_lines();
    text = tidy(text);
    if (!text.empty()) paragraphs_.push_back(std::move(text));
  }

  void close_lines() {
    if (!lines_.empty()) paragraphs_.push_back(std::move(lines_));
    lines_.clear();
  }

  void line(const std::string& indent, const std::string& text) {
    std::string t = tidy(text);
    if (t.empty()) return;
    if (!lines_.empty()) lines_ += "\n";
    lines_ += indent + t;
  }

  // A list item and everything under it as lines of the current list paragraph.
  void list_lines(const NotionBlock& b, const std::string& indent, int number) {
    std::string prefix = "- ";
    if (b.type == "numbered_list_item")
      prefix = std::to_string(number) + ". ";
    else if (b.type == "to_do")
      prefix = b.checked ? "[x] " : "[ ] ";
    else if (!is_list_item(b.type))
      prefix.clear();
    if (b.type == "table") {
      for (const auto& row : b.children) line(indent, table_row_line(row, nullptr, b.row_header));
      return;
    }
    line(indent, prefix + b.text);
    int n = 0;
    for (const auto& child : b.children) {
      n = child.type == "numbered_list_item" ? n + 1 : 0;
      list_lines(child, indent + "  ", n);
    }
  }

  void table(const NotionBlock& b) {
    close_lines();
    std::vector<std::string> names;
    bool first = true;
    for (const auto& row : b.children) {
      if (row.type != "table_row") continue;
      if (first && b.column_header) {
        names = row.cells;
        first = false;
        continue;
      }
      first = false;
      line("", table_row_line(row, b.column_header ? &names : nullptr, b.row_header));
    }
    close_lines();
  }

  void block(const NotionBlock& b, int number) {
    if (is_list_item(b.type)) {
      list_lines(b, "", number);
      return;
    }
    close_lines();  // a list ends at the first block that is not one of its items
    if (b.type == "table") return table(b);
    if (is_container(b.type)) return blocks(b.children);
    if (b.type == "code") {
      std::string code = b.text;
      while (!code.empty() && std::isspace(static_cast<unsigned char>(code.back())))
        code.pop_back();
      if (!tidy(code).empty()) paragraphs_.push_back(code);
      return;
    }
    // Headings, paragraphs, quotes, callouts, toggles, child pages, captions: the text, then
    // whatever the block holds.
    if (is_heading(b.type) || !b.text.empty()) paragraph(b.text);
    blocks(b.children);
  }

  std::vector<std::string> paragraphs_;
  std::string lines_;  // the list or table being written
};
}  // namespace

std::string rich_text_plain(const rapidjson::Value& rich_text) {
  std::string out;
  if (!rich_text.IsArray()) return out;
  for (const auto& piece : rich_text.GetArray()) out += string_member(piece, "plain_text");
  return out;
}

NotionPage read_page(const rapidjson::Value& page) {
  NotionPage p;
  p.id = std::string(string_member(page, "id"));
  p.url = std::string(string_member(page, "url"));
  p.last_edited_time = std::string(string_member(page, "last_edited_time"));
  p.gone = bool_member(page, "archived") || bool_member(page, "in_trash");
  if (const rapidjson::Value* props = member(page, "properties");
      props != nullptr && props->IsObject()) {
    for (const auto& prop : props->GetObject()) {
      if (string_member(prop.value, "type") != "title") continue;
      if (const rapidjson::Value* title = member(prop.value, "title"))
        p.title = tidy(rich_text_plain(*title));
      break;
    }
  }
  return p;
}

NotionBlock read_block(const rapidjson::Value& block) {
  NotionBlock b;
  b.id = std::string(string_member(block, "id"));
  b.type = std::string(string_member(block, "type"));
  b.has_children = bool_member(block, "has_children");
  const rapidjson::Value* body = b.type.empty() ? nullptr : member(block, b.type.c_str());
  if (body == nullptr || !body->IsObject()) return b;
  if (b.type == "child_page" || b.type == "child_database") {
    b.text = std::string(string_member(*body, "title"));
  } else if (b.type == "equation") {
    b.text = std::string(string_member(*body, "expression"));
  } else if (const rapidjson::Value* rt = member(*body, "rich_text")) {
    b.text = rich_text_plain(*rt);
  } else if (const rapidjson::Value* caption = member(*body, "caption")) {
    b.text = rich_text_plain(*caption);  // images, files, bookmarks, embeds
  }
  b.checked = bool_member(*body, "checked");
  b.column_header = bool_member(*body, "has_column_header");
  b.row_header = bool_member(*body, "has_row_header");
  if (const rapidjson::Value* cells = member(*body, "cells");
      cells != nullptr && cells->IsArray()) {
    for (const auto& cell : cells->GetArray()) b.cells.push_back(rich_text_plain(cell));
  }
  return b;
}

bool wants_children(const NotionBlock& block) {
  return block.has_children && block.type != "child_page" && block.type != "child_database";
}

std::string render_page_text(const std::vector<NotionBlock>& blocks) {
  Renderer r;
  r.blocks(blocks);
  return r.finish();
}

}  // namespace parley
