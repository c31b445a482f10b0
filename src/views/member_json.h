// Team members as JSON, shared by the console and the admin CLI. Stateless.
#pragma once

#include "core/json.h"
#include "store/member_repo.h"

namespace parley {

// {id, email, name, role, createdAt}
void write_member_json(JsonWriter& w, const MemberRecord& m);

}  // namespace parley
