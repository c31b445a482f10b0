// Precompiled for parley_test_support, reused by the integration and end-to-end tests
// (CMakeLists.txt, PARLEY_PCH): the unit tests' list, and what tests/e2e/harness.h and the
// loopback stand-ins include (nlohmann/json, <regex>, files, processes and sockets).
#pragma once

#include "unit_tests.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>
