#include "workspace/notion_blocks.h"

#include <gtest/gtest.h>

#include "core/json.h"

namespace parley {
namespace {

rapidjson::Document parse(const std::string& text) {
  auto doc = parse_json_value(text);
  EXPECT_TRUE(doc.ok()) << text;
  return std::move(doc).value();
}

std::string rt(const std::string& text) {
  return R"([{"type":"text","text":{"content":")" + text + R"(","link":null},"plain_text":")" +
         text + R"(","href":null}])";
}

NotionBlock block(const std::string& type, const std::string& text,
                  std::vector<NotionBlock> children = {}) {
  NotionBlock b;
  b.type = type;
  b.text = text;
  b.children = std::move(children);
  b.has_children = !b.children.empty();
  return b;
}

TEST(NotionBlocks, ReadsAPageWithItsTitlePropertyWhateverItsName) {
  auto doc = parse(R"({"object":"page","id":"59833787-2cf9-4fdf-8782-e53db20768a5",
    "last_edited_time":"2024-03-01T10:00:00.000Z","archived":false,"in_trash":false,
    "url":"https://www.notion.so/Opening-hours-598337872cf94fdf8782e53db20768a5",
    "properties":{"Tags":{"id":"a","type":"multi_select","multi_select":[]},
                  "Name":{"id":"title","type":"title","title":)" +
                   rt("Opening hours") + R"(}}})");
  NotionPage p = read_page(doc);
  EXPECT_EQ(p.id, "59833787-2cf9-4fdf-8782-e53db20768a5");
  EXPECT_EQ(p.title, "Opening hours");
  EXPECT_EQ(p.url, "https://www.notion.so/Opening-hours-598337872cf94fdf8782e53db20768a5");
  EXPECT_EQ(p.last_edited_time, "2024-03-01T10:00:00.000Z");
  EXPECT_FALSE(p.gone);
  EXPECT_TRUE(read_page(parse(R"({"object":"page","id":"x","in_trash":true})")).gone);
  EXPECT_TRUE(read_page(parse(R"({"object":"page","id":"x","archived":true})")).gone);
}

TEST(NotionBlocks, ReadsEachBlockTypesText) {
  auto para =
      read_block(parse(R"({"object":"block","id":"b1","type":"paragraph","has_children":true,
    "paragraph":{"rich_text":[{"plain_text":"Bikes are "},{"plain_text":"serviced daily."}],"color":"default"}})"));
  EXPECT_EQ(para.type, "paragraph");
  EXPECT_EQ(para.text, "Bikes are serviced daily.");
  EXPECT_TRUE(para.has_children);
  EXPECT_TRUE(wants_children(para));

  auto todo = read_block(
      parse(R"({"type":"to_do","to_do":{"rich_text":)" + rt("Pack") + R"(,"checked":true}})"));
  EXPECT_TRUE(todo.checked);
  auto child = read_block(
      parse(R"({"type":"child_page","has_children":true,"child_page":{"title":"Prices"}})"));
  EXPECT_EQ(child.text, "Prices");
  EXPECT_FALSE(wants_children(child));
  auto row = read_block(parse(R"({"type":"table_row","table_row":{"cells":[)" + rt("Adult") + "," +
                              rt("45 EUR") + R"(,[]]}})"));
  ASSERT_EQ(row.cells.size(), 3u);
  EXPECT_EQ(row.cells[1], "45 EUR");
  auto table = read_block(parse(
      R"({"type":"table","table":{"table_width":2,"has_column_header":true,"has_row_header":false}})"));
  EXPECT_TRUE(table.column_header);
  EXPECT_FALSE(table.row_header);
  auto image = read_block(
      parse(R"({"type":"image","image":{"type":"external","caption":)" + rt("Our shop") + "}}"));
  EXPECT_EQ(image.text, "Our shop");
  // Unknown or malformed blocks read as empty, never fail.
  EXPECT_EQ(read_block(parse(R"({"type":"new_kind","new_kind":{"whatever":1}})")).text, "");
  EXPECT_EQ(read_block(parse(R"({"type":"paragraph","paragraph":"oops"})")).text, "");
  EXPECT_EQ(read_block(parse(R"([1,2])")).type, "");
}

TEST(NotionBlocks, RendersHeadedTextWithListsTablesAndNestedBlocks) {
  NotionBlock table = block("table", "", {});
  table.column_header = true;
  NotionBlock head = block("table_row", "");
  head.cells = {"Ticket", "Price"};
  NotionBlock adult = block("table_row", "");
  adult.cells = {"Adult", "45 EUR"};
  NotionBlock child = block("table_row", "");
  child.cells = {"Child", ""};
  table.children = {head, adult, child};
  NotionBlock done = block("to_do", "Check brakes");
  done.checked = true;
  std::vector<NotionBlock> page = {
      block("heading_1", "Rentals"),
      block("paragraph", "We rent city bikes."),
      block("bulleted_list_item", "Helmets included", {block("bulleted_list_item", "All sizes")}),
      block("bulleted_list_item", "Locks included"),
      block("heading_2", "Steps"),
      block("numbered_list_item", "Pick a bike"),
      block("numbered_list_item", "Pay at the desk"),
      done,
      block("divider", ""),
      block("toggle", "Opening hours", {block("paragraph", "Open 9 to 18 on weekdays.")}),
      block("quote", "Best shop in town"),
      block("callout", "Closed on holidays"),
      block("code", "ride --fast\n  --safe\n"),
      table,
      block("child_page", "Prices"),
      block("column_list", "", {block("column", "", {block("paragraph", "Left column")})}),
  };
  EXPECT_EQ(render_page_text(page),
            "Rentals\n\nWe rent city bikes.\n\n"
            "- Helmets included\n  - All sizes\n- Locks included\n\n"
            "Steps\n\n1. Pick a bike\n2. Pay at the desk\n[x] Check brakes\n\n"
            "Opening hours\n\nOpen 9 to 18 on weekdays.\n\n"
            "Best shop in town\n\nClosed on holidays\n\nride --fast\n  --safe\n\n"
            "Ticket: Adult; Price: 45 EUR\nTicket: Child\n\nPrices\n\nLeft column");
}

TEST(NotionBlocks, TablesWithoutAColumnHeaderAndBlankText) {
  NotionBlock table = block("table", "");
  table.row_header = true;
  NotionBlock r1 = block("table_row", "");
  r1.cells = {"Monday", "9", "18"};
  table.children = {r1};
  EXPECT_EQ(render_page_text({table}), "Monday: 9 | 18");
  table.row_header = false;
  EXPECT_EQ(render_page_text({table}), "Monday | 9 | 18");
  // Blank lines inside one block do not split it; empty blocks leave nothing.
  EXPECT_EQ(render_page_text({block("paragraph", "  one\n\n\ntwo  "), block("paragraph", " ")}),
            "one\ntwo");
  EXPECT_EQ(render_page_text({}), "");
}

}  // namespace
}  // namespace parley
