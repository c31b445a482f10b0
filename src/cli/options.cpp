#include "cli/options.h"

#include <cstdio>
#include <filesystem>

#include "core/json.h"

namespace parley {

void add_global_options(CLI::App& app, GlobalOptions& o) {
  app.add_option("--data-dir", o.data_dir, "Directory holding the SQLite database")
      ->envname("PARLEY_DATA_DIR")
      ->capture_default_str();
  app.add_option("--database", o.database_url, "Database URL: sqlite:PATH or postgresql://...; wins over --data-dir")
      ->envname("PARLEY_DATABASE_URL");
  app.add_option("--database-pool", o.database_pool,
                 "PostgreSQL: connections kept for writes (each thread that reads has its own besides)")
      ->envname("PARLEY_DATABASE_POOL")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--durability", o.durability,
                 "full: an acknowledged write survives power loss; normal: survives a crash of the process")
      ->envname("PARLEY_DURABILITY")
      ->check(CLI::IsMember({"full", "normal"}))
      ->capture_default_str();
}

Result<std::unique_ptr<Database>> open_configured_database(const GlobalOptions& o,
                                                           bool confirm_heard_on_close) {
  DatabaseOptions d;
  d.confirm_heard_on_close = confirm_heard_on_close;
  d.durability = o.durability == "normal" ? Durability::kNormal : Durability::kFull;
  d.pool_size = o.database_pool;
  if (!o.database_url.empty()) {
    d.url = o.database_url;
  } else {
    std::error_code ec;
    std::filesystem::create_directories(o.data_dir, ec);
    if (ec) return ApiError::internal("cannot create data directory " + o.data_dir + ": " + ec.message());
    d.url = "sqlite:" + (std::filesystem::path(o.data_dir) / "parley.db").string();
  }
  return open_database(d);
}

void print_json(std::string_view json) {
  std::fwrite(json.data(), 1, json.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

int print_error(const ApiError& error) {
  std::string body = error_body(error);
  std::fprintf(stderr, "%s\n", body.c_str());
  return 1;
}

}  // namespace parley
