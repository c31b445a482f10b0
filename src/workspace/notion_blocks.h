// Notion's objects as Parley reads them (API version 2022-06-28): a page (id, title, url, last
// edit, whether it is archived or in the trash) and its content blocks, and a page's blocks as
// headed text for a `workspace` source. Reading is lenient: an unknown block type, a missing
// field or a value of the wrong type gives an empty value, never an error, so a block type Notion
// adds later is skipped rather than failing the page. Pure functions; thread-safe.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace parley {

struct NotionPage {
  std::string id;  // as Notion writes it: lower-case hex with dashes
  std::string title;
  std::string url;
  std::string last_edited_time;  // ISO 8601 text as Notion sends it
  bool gone = false;             // archived or in the trash
};

struct NotionBlock {
  std::string id;
  std::string type;  // Notion's block type ("paragraph", "heading_2", …)
  std::string text;  // the block's rich text as plain text (a code block's code, a page's title)
  bool has_children = false;
  bool checked = false;                            // to_do
  bool column_header = false, row_header = false;  // table
  std::vector<std::string> cells;                  // table_row: each cell's plain text
  std::vector<NotionBlock> children;               // filled by the client for has_children blocks
};

// The plain text of a rich-text array (each element's plain_text, joined).
std::string rich_text_plain(const rapidjson::Value& rich_text);
// A page object; the title is the page's property of type "title" (named "title" for pages
// under pages, the database's own name for a database row).
NotionPage read_page(const rapidjson::Value& page);
// One block object, without its children.
NotionBlock read_block(const rapidjson::Value& block);
// Whether the client should fetch this block's children: a child page or database is a page of
// its own (imported apart), so only its title is read.
bool wants_children(const NotionBlock& block);

// The page's text: headings on a line of their own, paragraphs, quotes, callouts and code
// separated by blank lines, consecutive list items, to-dos and table rows as the lines of one
// paragraph ("- item", "1. item", "[x] done", "Header: value; Header: value"), children of a
// list item indented under it, a toggle's text followed by what it hides, a child page's title
// as a line. Blocks without text (dividers, images without a caption, embeds) are left out.
std::string render_page_text(const std::vector<NotionBlock>& blocks);

}  // namespace parley
