// Helpers for admin subcommands: open the database with the real clock and randomness, run a
// domain function, print its JSON or its error.
#pragma once

#include <functional>

#include "cli/options.h"
#include "core/json.h"
#include "store/services.h"

namespace parley {

// Opens the database and calls `body` with the services; returns the process exit code.
int run_admin(const GlobalOptions& global, const std::function<Result<std::string>(Services&)>& body);

}  // namespace parley
