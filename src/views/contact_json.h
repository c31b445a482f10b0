// The Contact resource as JSON, shared by the fronts. Stateless.
#pragma once

#include "core/json.h"
#include "store/contact_repo.h"

namespace parley {

// The Contact resource of the spec.
void write_contact_json(JsonWriter& w, const ContactRecord& contact);

}  // namespace parley
