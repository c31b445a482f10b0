#include "cli/workspace_options.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/log.h"

namespace parley {

namespace {
Result<std::shared_ptr<const SecretBox>> read_key_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) return ApiError::invalid("Cannot read the secret key file " + path + ".");
  std::stringstream text;
  text << f.rdbuf();
  auto box = SecretBox::from_base64(text.str());
  if (!box.ok())
    return ApiError::invalid("The secret key file " + path +
                             " is unusable: " + box.error().message);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0)
    log_warn("the secret key file can be read by other users; chmod 600 it",
             {{"path", std::string_view(path)}});
  return std::make_shared<const SecretBox>(std::move(box).value());
}

// Writes a new key to `path`, readable by this user only; when another process made it first,
// reads that one.
Result<std::shared_ptr<const SecretBox>> make_key_file(const std::string& path, Random& random) {
  SecretBox box = SecretBox::generate(random);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return read_key_file(path);
    return ApiError::internal("Cannot create the secret key file " + path + ": " +
                              std::strerror(errno));
  }
  std::string text = box.key_base64() + "\n";
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
            ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) {
    ::unlink(path.c_str());
    return ApiError::internal("Cannot write the secret key file " + path + ".");
  }
  log_info("made a secret key file for workspace tokens; back it up with the database",
           {{"path", std::string_view(path)}, {"keyId", std::string_view(box.key_id())}});
  return std::make_shared<const SecretBox>(std::move(box));
}

std::string default_key_path(const GlobalOptions& global) {
  constexpr std::string_view kSqlite = "sqlite:";
  if (global.database_url.rfind(kSqlite, 0) == 0) {
    std::filesystem::path db(global.database_url.substr(kSqlite.size()));
    return (db.parent_path().empty() ? std::filesystem::path(".") : db.parent_path())
        .append("secret.key")
        .string();
  }
  return (std::filesystem::path(global.data_dir) / "secret.key").string();
}
}  // namespace

void add_workspace_serve_options(CLI::App& cmd, WorkspaceServeOptions& o) {
  cmd.add_option(
         "--secret-key-file", o.secret_key_file,
         "File holding the server's secret key (base64 of 32 bytes) that seals workspace tokens; "
         "nodes sharing a database need the same key (the key itself: PARLEY_SECRET_KEY)")
      ->envname("PARLEY_SECRET_KEY_FILE");
  cmd.add_option(
         "--notion-api-url", o.notion_api_url,
         "Base address of Notion's API (default https://api.notion.com); another address is "
         "called as given, unguarded (a local stand-in in tests)")
      ->envname("PARLEY_NOTION_API_URL");
  cmd.add_option("--notion-timeout-ms", o.notion_timeout_ms, "Time limit of one call to Notion")
      ->envname("PARLEY_NOTION_TIMEOUT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--notion-max-retry-wait-ms", o.notion_max_retry_wait_ms,
                 "Longest Retry-After of a Notion 429 the import worker waits out before giving up")
      ->envname("PARLEY_NOTION_MAX_RETRY_WAIT_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
}

Result<std::shared_ptr<const SecretBox>> load_secret_key(const WorkspaceServeOptions& o,
                                                         const GlobalOptions& global,
                                                         std::string_view backend, Random& random) {
  if (const char* key = std::getenv("PARLEY_SECRET_KEY"); key != nullptr && *key != '\0') {
    auto box = SecretBox::from_base64(key);
    if (!box.ok())
      return ApiError::invalid("PARLEY_SECRET_KEY is unusable: " + box.error().message);
    return std::make_shared<const SecretBox>(std::move(box).value());
  }
  if (!o.secret_key_file.empty()) return read_key_file(o.secret_key_file);
  if (backend != "sqlite") return std::shared_ptr<const SecretBox>();
  std::string path = default_key_path(global);
  if (std::filesystem::exists(path)) return read_key_file(path);
  return make_key_file(path, random);
}

NotionOptions notion_options(const WorkspaceServeOptions& o) {
  NotionOptions n;
  if (!o.notion_api_url.empty()) {
    n.api_url = o.notion_api_url;
    while (!n.api_url.empty() && n.api_url.back() == '/') n.api_url.pop_back();
    n.operator_url = n.api_url != kNotionApiUrl;
  }
  n.timeout_ms = o.notion_timeout_ms;
  n.max_retry_wait_ms = o.notion_max_retry_wait_ms;
  return n;
}

}  // namespace parley
