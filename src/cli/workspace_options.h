// The workspace options of `parley serve` (each also an environment variable): the server's
// secret key that seals workspace tokens at rest, and the Notion API's base address.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "cli/options.h"
#include "core/random.h"
#include "core/secret_box.h"
#include "workspace/notion_client.h"

namespace parley {

struct WorkspaceServeOptions {
  std::string secret_key_file;  // --secret-key-file, PARLEY_SECRET_KEY_FILE
  std::string notion_api_url;   // --notion-api-url, PARLEY_NOTION_API_URL; empty: Notion's own
  int64_t notion_timeout_ms = 30'000;
  int64_t notion_max_retry_wait_ms = 60'000;
};

void add_workspace_serve_options(CLI::App& serve, WorkspaceServeOptions& options);

// The server's secret key: PARLEY_SECRET_KEY (base64 of 32 bytes), else the file of
// --secret-key-file, else, on SQLite, `secret.key` beside the database file, made (mode 0600)
// on first start. On PostgreSQL without a key: none (nodes must share one, so none is made up).
// An error when a named key is unreadable or malformed.
Result<std::shared_ptr<const SecretBox>> load_secret_key(const WorkspaceServeOptions& options,
                                                         const GlobalOptions& global,
                                                         std::string_view backend, Random& random);

NotionOptions notion_options(const WorkspaceServeOptions& options);

}  // namespace parley
