// An export's query and its files: the format and the UTC days of the range (both included), CSV
// fields quoted per RFC 4180 with formulas defused and numbers left alone, and a conversation as
// one JSON line and as one CSV row per message (one row when it has none).
#include "views/conversation_export.h"

#include <gtest/gtest.h>

#include "core/json.h"

namespace parley {
namespace {

std::string field(std::string_view v) {
  std::string out;
  append_csv_field(out, v);
  return out;
}

TEST(ConversationExport, QueryDefaultsAndRange) {
  auto all = parse_export_request(std::nullopt, std::nullopt, std::nullopt);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->format, ExportFormat::kJsonLines);
  EXPECT_EQ(all->from_ms, 0);
  auto days = parse_export_request("csv", "2026-01-10", "2026-01-10");
  ASSERT_TRUE(days.ok());
  EXPECT_EQ(days->format, ExportFormat::kCsv);
  EXPECT_EQ(days->from_ms, 1768003200000);  // 2026-01-10T00:00Z
  EXPECT_EQ(days->to_ms, 1768089600000);    // the next midnight: the day is included
  auto exact = parse_export_request("jsonl", std::nullopt, "2026-01-10T12:00:00Z");
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->to_ms, 1768046400000);  // a time is taken as it is
}

TEST(ConversationExport, BadQueriesNameTheField) {
  auto format = parse_export_request("xlsx", std::nullopt, std::nullopt);
  ASSERT_FALSE(format.ok());
  EXPECT_NE(format.error().message.find("'format'"), std::string::npos);
  auto from = parse_export_request(std::nullopt, "10/01/2026", std::nullopt);
  ASSERT_FALSE(from.ok());
  EXPECT_NE(from.error().message.find("'from'"), std::string::npos);
  auto order = parse_export_request(std::nullopt, "2026-02-01", "2026-01-31");
  ASSERT_FALSE(order.ok());
  EXPECT_EQ(order.error().code, ErrorCode::kInvalidRequest);
}

TEST(ConversationExport, CsvFields) {
  EXPECT_EQ(field("plain"), "plain");
  EXPECT_EQ(field(""), "");
  EXPECT_EQ(field("a,b"), "\"a,b\"");
  EXPECT_EQ(field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(field("=SUM(A1:A2)"), "'=SUM(A1:A2)");
  EXPECT_EQ(field("@cmd"), "'@cmd");
  EXPECT_EQ(field("+49 151 1234"), "+49 151 1234");  // a phone number
  EXPECT_EQ(field("-12.5"), "-12.5");
  EXPECT_EQ(field("-"), "'-");
  EXPECT_EQ(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
}

ExportedConversation sample(bool with_messages) {
  ExportedConversation e;
  e.conversation.id = "cnv_1";
  e.conversation.channel = "api";
  e.conversation.created_at = 1768039200000;
  e.conversation.last_activity_at = 1768039201000;
  e.conversation.csat_score = 4;
  e.contact_id = "ctc_1";
  if (with_messages) {
    ExportedMessage m;
    m.message.id = "msg_1";
    m.message.seq = 1;
    m.message.role = "assistant";
    m.message.content = "Yes, we do.";
    m.message.created_at = 1768039201000;
    m.outcome = "answered";
    m.confidence = 0.5;
    e.messages.push_back(m);
  }
  return e;
}

TEST(ConversationExport, JsonLine) {
  std::string out;
  append_export(ExportFormat::kJsonLines, {sample(true)}, out);
  ASSERT_EQ(out.back(), '\n');
  auto doc = parse_json_value(out);
  ASSERT_TRUE(doc.ok());
  EXPECT_STREQ((*doc)["id"].GetString(), "cnv_1");
  EXPECT_STREQ((*doc)["contactId"].GetString(), "ctc_1");
  EXPECT_EQ((*doc)["csat"]["score"].GetInt(), 4);
  EXPECT_TRUE((*doc)["csat"]["comment"].IsNull());
  EXPECT_EQ((*doc)["messageCount"].GetInt(), 1);
  EXPECT_STREQ((*doc)["messages"][0]["outcome"].GetString(), "answered");
  EXPECT_DOUBLE_EQ((*doc)["messages"][0]["confidence"].GetDouble(), 0.5);
  EXPECT_TRUE((*doc)["messages"][0]["rating"].IsNull());
}

TEST(ConversationExport, CsvRows) {
  std::string header = export_header(ExportFormat::kCsv);
  EXPECT_EQ(header.rfind("conversationId,channel,createdAt,", 0), 0u);
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), 24);
  std::string out;
  append_export(ExportFormat::kCsv, {sample(true), sample(false)}, out);
  EXPECT_EQ(out,
            "cnv_1,api,2026-01-10T10:00:00.000Z,2026-01-10T10:00:01.000Z,ctc_1,,,,[],,,,4,,msg_1,1,"
            "assistant,,\"Yes, we do.\",2026-01-10T10:00:01.000Z,answered,0.5,,,[]\r\n"
            "cnv_1,api,2026-01-10T10:00:00.000Z,2026-01-10T10:00:01.000Z,ctc_1,,,,[],,,,4,,,,,,,,,,"
            ",,\r\n");
  EXPECT_TRUE(export_header(ExportFormat::kJsonLines).empty());
}

}  // namespace
}  // namespace parley
