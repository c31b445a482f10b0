// Account operations shared by the admin CLI and the console.
#pragma once

#include "core/json.h"
#include "store/services.h"
#include "store/account_repo.h"

namespace parley {

Result<Account> create_account(Services& s, std::string_view name, std::string_view plan);
// Changes the plan; keys stay listed and are refused with plan_required while on Free.
Result<Account> set_account_plan(Services& s, std::string_view account_id, std::string_view plan);
// Sets the account's limit overrides (a JSON object of messagesPerMonth, trainingCharacters,
// contactsPerAgent); "{}" clears them.
Result<Account> set_account_limits(Services& s, std::string_view account_id, std::string_view limits_json);
Result<Account> get_account(Services& s, std::string_view account_id);

}  // namespace parley
