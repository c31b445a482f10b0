// Sources and training progress as JSON, shared by the fronts. Stateless.
#pragma once

#include "core/json.h"
#include "domain/sources.h"

namespace parley {

// The Source resource (question and answer only for qa; never the text of other types).
void write_source_json(JsonWriter& w, const SourceRecord& s);
void write_training_json(JsonWriter& w, const SourceCounts& c);

}  // namespace parley
