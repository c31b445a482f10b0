// Versioned schema migrations: numbered SQL files in src/store/migrations, embedded at build
// time, applied in order at start, each in its own transaction and recorded in schema_migrations.
#pragma once

#include <string_view>
#include <vector>

#include "core/result.h"

namespace parley {

class Connection;

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

const std::vector<Migration>& embedded_migrations();

// Applies every migration not yet recorded. `begin`/`commit` are the backend's statements.
Result<int> apply_migrations(Connection& conn);

}  // namespace parley
