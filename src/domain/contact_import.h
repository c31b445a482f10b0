// Bulk contact import from a CSV file (the dashboard's "Import contacts", `parley admin contact
// import`). The header row's columns are mapped to contact fields: by the mapping sent with the
// file for the headers it names, otherwise from the header itself. Then each row goes through the
// API's create-or-update rules (domain/contacts.h: the same validation, conflicts and plan
// allowance) with source `import`, all-or-nothing per row; rows are written in batches, one
// transaction each, so 100,000 rows take seconds. A row that changes nothing writes nothing, so
// importing the same file again leaves every contact (and its updatedAt) as it was. Knows no
// HTTP; stateless and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/result.h"
#include "store/agent_repo.h"
#include "store/services.h"

namespace parley {

enum class ImportField { kIgnore, kExternalId, kEmail, kPhone, kName, kAttribute };

// Where a column goes: a field, an attribute (`attribute` holds its name), or nowhere.
struct ColumnTarget {
  ImportField field = ImportField::kIgnore;
  std::string attribute;

  // "external_id", "email", "phone", "name", "attributes.<name>" or "ignore".
  std::string text() const;
  bool operator==(const ColumnTarget&) const = default;
};

// One target per column of the header row, in order.
struct ColumnMapping {
  std::vector<std::string> headers;
  std::vector<ColumnTarget> targets;
};

// A target's text as a mapping gives it; none for anything else.
std::optional<ColumnTarget> parse_column_target(std::string_view text);
// The target of a header without a mapping: the field it names, compared case-insensitively
// without spaces, underscores and hyphens ("External ID", "E-mail"), else `attributes.<slug>`
// when the header's slug (lower case, runs of spaces, hyphens, dots and underscores as one
// underscore) is a valid attribute name, else ignore.
ColumnTarget default_column_target(std::string_view header);
// Each column's target: `mapping_json` (a JSON object from header to target text; empty for none)
// for the headers it names, the default for the others; a header's second column with a target
// already taken is ignored by default. 400 naming 'mapping' when it is not such an object, names a
// header the file lacks, gives an unknown target, sends two columns to one field or attribute, or
// when no column holds an external_id or an email.
Result<ColumnMapping> map_columns(const std::vector<std::string>& headers,
                                  std::string_view mapping_json);

inline constexpr size_t kMaxImportErrors = 1000;

struct ImportRowError {
  int64_t row;  // the record's number in the file, the header being 1
  ErrorCode code;
  std::string message;
};

struct ImportReport {
  int64_t rows = 0;  // records after the header, empty lines not counted
  int64_t created = 0;
  int64_t updated = 0;
  int64_t unchanged = 0;
  int64_t refused = 0;
  std::vector<ImportRowError> errors;  // the first kMaxImportErrors refused rows, in file order
  ColumnMapping mapping;
};

struct ImportLimits {
  int64_t max_rows = 200'000;  // records after the header; more is refused before any is imported
  size_t batch_rows = 500;     // rows per transaction
};

// A CSV file as sent.
struct ImportFile {
  std::string_view bytes;
  std::string_view content_type;  // as declared (may carry charset=); may be empty
};

// Imports the CSV file into `agent`'s contacts. Its text is UTF-8 (with or without a byte order
// mark) or read from the charset its Content-Type declares, a UTF-16 byte order mark shows, or
// ICU detects (extract/charset.h); the delimiter is ',', ';' or tab as the header line shows.
// 400 with nothing imported when the file as a whole cannot be read: no header row, a quote
// never closed, more than max_rows rows, a bad mapping.
Result<ImportReport> import_contacts_csv(Services& s, const AgentRecord& agent,
                                         const ImportFile& file, std::string_view mapping_json,
                                         const ImportLimits& limits = {});

}  // namespace parley
