// A SQLite VFS for tests that forwards to the default one and fails every write
// (SQLITE_IOERR_WRITE) while `fail_writes` is set, or every sync (SQLITE_IOERR_FSYNC) while
// `fail_syncs` is set, so tests can inject I/O errors at chosen moments. Installed as the default
// VFS for its lifetime. Not thread-safe beyond the atomic switches.
#pragma once

#include <sqlite3.h>

#include <atomic>

namespace parley {

class FaultyVfs {
 public:
  FaultyVfs();
  ~FaultyVfs();
  FaultyVfs(const FaultyVfs&) = delete;
  FaultyVfs& operator=(const FaultyVfs&) = delete;

  static inline std::atomic<bool> fail_writes{false};
  static inline std::atomic<bool> fail_syncs{false};

 private:
  sqlite3_vfs vfs_{};
};

}  // namespace parley
