// Precompiled for parley_lib and the targets that reuse its flags (CMakeLists.txt, PARLEY_PCH):
// the standard headers most of src/ includes and RapidJSON (core/json.h, in about half of src/).
// Only headers that many files include belong here: every file pays for loading the whole
// precompiled header, so a header a few files use (Beast/Asio in http/, spdlog in core/log.cpp,
// CLI11 in cli/) makes the build slower, not faster (bench/results/test_time.md). Code still
// includes what it uses; this list changes nothing a file sees.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
