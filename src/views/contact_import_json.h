// JSON of a contact import's report, written alike by the console and `parley admin contact
// import`. Stateless.
#pragma once

#include "core/json.h"
#include "domain/contact_import.h"

namespace parley {

// {rows, created, updated, unchanged, refused, errors: [{row, code, message}], mapping: {header:
// target}}. A header that names several columns appears once, with the target of the first of
// them that has one.
void write_import_report_json(JsonWriter& w, const ImportReport& report);

}  // namespace parley
