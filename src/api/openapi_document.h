// The OpenAPI document of the server (docs/openapi.yaml), embedded at build time as compact JSON
// by scripts/gen-openapi.py and served at GET /api/v1/openapi.json.
#pragma once

#include <string_view>

namespace parley {

std::string_view openapi_json();

}  // namespace parley
