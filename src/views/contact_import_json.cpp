#include "views/contact_import_json.h"

namespace parley {

void write_import_report_json(JsonWriter& w, const ImportReport& report) {
  w.begin_object();
  w.key("rows").integer(report.rows);
  w.key("created").integer(report.created);
  w.key("updated").integer(report.updated);
  w.key("unchanged").integer(report.unchanged);
  w.key("refused").integer(report.refused);
  w.key("errors").begin_array();
  for (const auto& e : report.errors) {
    w.begin_object();
    w.key("row").integer(e.row);
    w.key("code").string(error_code_name(e.code));
    w.key("message").string(e.message);
    w.end_object();
  }
  w.end_array();
  w.key("mapping").begin_object();
  const auto& m = report.mapping;
  for (size_t i = 0; i < m.headers.size(); ++i) {
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = m.headers[j] == m.headers[i];
    if (seen) continue;
    const ColumnTarget* target = &m.targets[i];
    for (size_t j = i; j < m.headers.size() && target->field == ImportField::kIgnore; ++j)
      if (m.headers[j] == m.headers[i]) target = &m.targets[j];
    w.key(m.headers[i]).string(target->text());
  }
  w.end_object();
  w.end_object();
}

}  // namespace parley
