// The write side of an agent's tool settings (`mcpServers`, `webSearch`; the read side is
// model/tool_settings.h): the rules each entry must follow (400 naming the field), and the
// secrets they carry. A secret given in an update (an MCP server's `headerValue`, Brave's
// `apiKey`) is sealed with the server's key before it is stored (core/secret_box.h, bound to the
// agent's id) and shown as kRedactedSecret ever after; the marker sent back keeps the stored
// value only while the entry still points at the same address, as the other secrets of the
// settings do (domain/agent_settings.h). Stateless; thread-safe.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "core/result.h"
#include "domain/agent_settings.h"

namespace parley {

// True for the settings handled here.
bool is_tool_setting(std::string_view name);

// The rules of `mcpServers` and `webSearch` beyond their JSON kind.
Result<void> check_tool_setting(const std::string& name, const rapidjson::Value& value);

// Seals the secrets `value` (the update of setting `name`) carries in clear, and puts back the
// stored ones it names by the marker. 400 naming the secret when the marker names one whose
// address changed, or when a secret is given and `sealer` is null (the server has no key).
Result<void> seal_tool_secrets(const rapidjson::Value* stored_settings, const std::string& name,
                               rapidjson::Value& value, rapidjson::Document::AllocatorType& alloc,
                               const SecretSealer* sealer);

// Replaces the tool secrets of a settings object by the marker.
void redact_tool_secrets(rapidjson::Document& settings);

}  // namespace parley
