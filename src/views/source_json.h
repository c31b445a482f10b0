// JSON of knowledge sources and an agent's training progress, shared by the fronts and the admin
// CLI. Stateless.
#pragma once

#include "core/json.h"
#include "domain/sources.h"

namespace parley {

// The Source resource (question and answer only for qa; never the text of other types).
void write_source_json(JsonWriter& w, const SourceRecord& s);

void write_training_json(JsonWriter& w, const SourceCounts& c);

// {"data": the source, "result": "created" | …, "training": the agent's progress}: the answer to
// adding a source, from the API and the CLI.
void write_added_source_json(JsonWriter& w, const SourceAdded& added);

}  // namespace parley
