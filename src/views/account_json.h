// The account as the admin CLI and the console show it: id, name, plan, effective limits, times.
#pragma once

#include "core/json.h"
#include "store/account_repo.h"

namespace parley {

// The account as the admin CLI and the console show it: id, name, plan, effective limits, times.
void write_account_json(JsonWriter& w, const Account& a);

}  // namespace parley
