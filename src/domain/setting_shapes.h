// The shapes of the agent settings that hold structured items: the lead form, forms, booking, API
// actions, blocked countries, the products' prices and the provider's members. A setting of the
// right JSON kind whose items the readers (model/agent_settings.h) would skip, or read as
// something else, is refused with 400 naming the item (`booking.timeZone`, `apiActions[0].url`)
// rather than stored and silently ignored. Stateless; thread-safe.
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "core/result.h"

namespace parley {

// `value` is already of the setting's JSON kind (an object, an array).
Result<void> check_setting_shape(const std::string& name, const rapidjson::Value& value);

}  // namespace parley
