// Options every subcommand shares (each also an environment variable) and how they become a
// database URL.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "core/result.h"
#include "store/db.h"

namespace parley {

struct GlobalOptions {
  std::string data_dir = "./data";  // PARLEY_DATA_DIR
  std::string database_url;         // PARLEY_DATABASE_URL; wins over data_dir
  int database_pool = 16;           // PARLEY_DATABASE_POOL: PostgreSQL write connections
  std::string durability = "full";  // PARLEY_DURABILITY: full | normal
};

void add_global_options(CLI::App& app, GlobalOptions& options);

// Opens (creating the data directory when needed) the configured database and migrates it.
// `confirm_heard_on_close` (DatabaseOptions): true for commands that run and exit (`admin`), so
// that their changes are in force on every node when they exit; `serve` passes false.
Result<std::unique_ptr<Database>> open_configured_database(const GlobalOptions& options,
                                                           bool confirm_heard_on_close = true);

// Prints a JSON document followed by a newline on stdout.
void print_json(std::string_view json);
// Prints the error in the API's error shape on stderr; returns the exit code to use.
int print_error(const ApiError& error);

}  // namespace parley
