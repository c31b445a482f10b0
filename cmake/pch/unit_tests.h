// Precompiled for parley_unit_tests (CMakeLists.txt, PARLEY_PCH): what src/ precompiles, and
// GoogleTest, which every test file includes.
#pragma once

#include "parley.h"

#include <gtest/gtest.h>
