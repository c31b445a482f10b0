// Agent settings: a JSON object with a fixed set of known keys, each with a type. Updates merge
// into the stored object (null removes a key); unknown keys and wrong types are refused with a
// message naming the key.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace parley {

// Merges `update_json` into `current_json` and returns the new settings JSON.
Result<std::string> merge_agent_settings(std::string_view current_json, std::string_view update_json);

// The names of every known setting, comma-separated (for help and error messages).
std::string known_agent_settings();

}  // namespace parley
