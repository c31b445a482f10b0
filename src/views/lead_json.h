// JSON of a lead (the spec's Lead resource), shared by the fronts and the admin CLI. Stateless.
#pragma once

#include "core/json.h"
#include "domain/leads.h"

namespace parley {

// The Lead resource of the spec.
void write_lead_json(JsonWriter& w, const LeadRecord& lead, const FormLabels& labels);

}  // namespace parley
