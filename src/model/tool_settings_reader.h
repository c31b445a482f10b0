// Reads the tool settings of a parsed settings object (model/agent_settings.cpp uses it; kept
// apart so that the types in model/tool_settings.h need no JSON library). Thread-safe.
#pragma once

#include <rapidjson/document.h>

#include "model/tool_settings.h"

namespace parley {

// The well-formed tool settings of a settings object.
ToolSettings tool_settings_of(const rapidjson::Value& settings);

}  // namespace parley
