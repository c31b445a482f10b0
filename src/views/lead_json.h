// The Lead resource as JSON, shared by the fronts: custom fields with the labels their form has
// now (domain/leads.h's FormLabels). Stateless.
#pragma once

#include "core/json.h"
#include "domain/leads.h"

namespace parley {

// The Lead resource of the spec.
void write_lead_json(JsonWriter& w, const LeadRecord& lead, const FormLabels& labels);

}  // namespace parley
