// Accounts as JSON, shared by the admin CLI and the console. Stateless.
#pragma once

#include "core/json.h"
#include "domain/accounts.h"

namespace parley {

// The account as the admin CLI and the console show it: id, name, plan, effective limits, times.
void write_account_json(JsonWriter& w, const Account& a);

}  // namespace parley
