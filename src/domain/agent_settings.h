// Agent settings: a JSON object with a fixed set of known keys, each with a type. Updates merge
// into the stored object (null removes a key); unknown keys and wrong types are refused with a
// message naming the key. This is the write side; everything that acts on settings reads them
// once, as types, through model/agent_settings.h.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace parley {

// Seals a new secret for the agent being written (SecretBox::seal with the agent's id).
using SecretSealer = std::function<std::string(std::string_view plaintext)>;

// Merges `update_json` into `current_json` and returns the new settings JSON. `sealer` seals the
// tool secrets an update gives in clear (domain/tool_settings.h); null: the server has no key,
// and an update that gives one is refused.
Result<std::string> merge_agent_settings(std::string_view current_json, std::string_view update_json,
                                         const SecretSealer* sealer = nullptr);

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

// An http or https URL (the scheme in any case) with a host and no white space.
bool is_web_url(std::string_view url);

// Where a URL sends its requests, compared to decide whether a stored secret may follow an
// update: the scheme and host lower-cased, the port made explicit, any user part dropped, then
// the path and query as written (the fragment never leaves the client). Text that does not look
// like a URL is its own destination, so it only ever matches itself.
std::string secret_destination(std::string_view url);

}  // namespace parley
