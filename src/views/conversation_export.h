// An agent's conversations as an export file, written a batch at a time (store/export_queries.h):
// CSV, one row per message with its conversation's fields (a conversation without messages has
// one row with the message's columns empty), or JSON Lines, one conversation per line with its
// messages. The columns and fields are listed in docs/decisions/records.md. Also the parsing of
// an export's query (format, from, to), shared by the console and the admin CLI. Stateless.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/export_queries.h"

namespace parley {

enum class ExportFormat { kCsv, kJsonLines };

struct ExportRequest {
  ExportFormat format = ExportFormat::kJsonLines;
  int64_t from_ms = 0;        // createdAt at or after (inclusive), midnight UTC
  int64_t to_ms = INT64_MAX;  // createdAt before (the day after `to`, midnight UTC)
};

// Reads `format` (csv | jsonl), `from` and `to` (YYYY-MM-DD, UTC days, both included; or any ISO
// 8601 time, `to` then exclusive). 400 naming the field when malformed or `from` is after `to`.
Result<ExportRequest> parse_export_request(std::optional<std::string_view> format,
                                           std::optional<std::string_view> from,
                                           std::optional<std::string_view> to);

std::string_view export_content_type(ExportFormat f);
std::string_view export_extension(ExportFormat f);

// The text before the first batch (CSV: the header row; JSON Lines: nothing).
std::string export_header(ExportFormat f);
// Appends the batch's conversations to `out`.
void append_export(ExportFormat f, const std::vector<ExportedConversation>& batch,
                   std::string& out);

// A CSV field per RFC 4180, with a leading apostrophe for text a spreadsheet would run as a
// formula (as the dashboard's own CSV downloads do, web/src/dashboard/csv.ts).
void append_csv_field(std::string& out, std::string_view value);

}  // namespace parley
