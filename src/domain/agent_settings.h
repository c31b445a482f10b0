// Agent settings: a JSON object with a fixed set of known keys, each with a type. Updates merge
// into the stored object (null removes a key); unknown keys and wrong types are refused with a
// message naming the key. This is the write side; everything that acts on settings reads them
// once, as types, through model/agent_settings.h.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace parley {

// Merges `update_json` into `current_json` and returns the new settings JSON.
Result<std::string> merge_agent_settings(std::string_view current_json, std::string_view update_json);

// The names of every known setting, comma-separated (for help and error messages).
std::string known_agent_settings();

// The settings as shown to people (console, admin CLI): secrets (the provider key in
// `llm.apiKey`, the header values of `apiActions`) replaced by kRedactedSecret. Sending
// kRedactedSecret back in an update keeps the stored secret, so a settings object read and written
// back loses nothing, but only while the secret still goes to the same host (`llm.baseUrl`, the
// action's `url`): an update that moves it elsewhere with the marker is refused, 400 naming the
// secret, so nobody who may edit settings can send a key they were never shown to their own server.
std::string redact_agent_settings(std::string_view settings_json);
inline constexpr std::string_view kRedactedSecret = "********";

}  // namespace parley
