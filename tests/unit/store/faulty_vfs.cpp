#include "faulty_vfs.h"

namespace parley {

namespace {
sqlite3_vfs* real_vfs = nullptr;

struct File {
  sqlite3_file base;
  sqlite3_file* real;  // the default VFS's file, stored right after this struct
};
sqlite3_file* real(sqlite3_file* f) { return reinterpret_cast<File*>(f)->real; }

int x_close(sqlite3_file* f) { return real(f)->pMethods->xClose(real(f)); }
int x_read(sqlite3_file* f, void* p, int n, sqlite3_int64 off) { return real(f)->pMethods->xRead(real(f), p, n, off); }
int x_write(sqlite3_file* f, const void* p, int n, sqlite3_int64 off) {
  if (FaultyVfs::fail_writes) return SQLITE_IOERR_WRITE;
  return real(f)->pMethods->xWrite(real(f), p, n, off);
}
int x_truncate(sqlite3_file* f, sqlite3_int64 size) { return real(f)->pMethods->xTruncate(real(f), size); }
int x_sync(sqlite3_file* f, int flags) {
  if (FaultyVfs::fail_syncs) return SQLITE_IOERR_FSYNC;
  return real(f)->pMethods->xSync(real(f), flags);
}
int x_file_size(sqlite3_file* f, sqlite3_int64* size) { return real(f)->pMethods->xFileSize(real(f), size); }
int x_lock(sqlite3_file* f, int level) { return real(f)->pMethods->xLock(real(f), level); }
int x_unlock(sqlite3_file* f, int level) { return real(f)->pMethods->xUnlock(real(f), level); }
int x_check_reserved(sqlite3_file* f, int* out) { return real(f)->pMethods->xCheckReservedLock(real(f), out); }
int x_file_control(sqlite3_file* f, int op, void* arg) { return real(f)->pMethods->xFileControl(real(f), op, arg); }
int x_sector_size(sqlite3_file* f) { return real(f)->pMethods->xSectorSize(real(f)); }
int x_device(sqlite3_file* f) { return real(f)->pMethods->xDeviceCharacteristics(real(f)); }
int x_shm_map(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  return real(f)->pMethods->xShmMap(real(f), region, size, extend, out);
}
int x_shm_lock(sqlite3_file* f, int offset, int n, int flags) { return real(f)->pMethods->xShmLock(real(f), offset, n, flags); }
void x_shm_barrier(sqlite3_file* f) { real(f)->pMethods->xShmBarrier(real(f)); }
int x_shm_unmap(sqlite3_file* f, int del) { return real(f)->pMethods->xShmUnmap(real(f), del); }

const sqlite3_io_methods kMethods = {
    2,       x_close,          x_read,        x_write,    x_truncate, x_sync,       x_file_size,
    x_lock,  x_unlock,         x_check_reserved, x_file_control, x_sector_size, x_device, x_shm_map,
    x_shm_lock, x_shm_barrier, x_shm_unmap,   nullptr,    nullptr};

int x_open(sqlite3_vfs*, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  auto* file = reinterpret_cast<File*>(f);
  file->real = reinterpret_cast<sqlite3_file*>(file + 1);
  int rc = real_vfs->xOpen(real_vfs, name, file->real, flags, out_flags);
  file->base.pMethods = file->real->pMethods != nullptr ? &kMethods : nullptr;
  return rc;
}
}  // namespace

FaultyVfs::FaultyVfs() {
  real_vfs = sqlite3_vfs_find(nullptr);
  vfs_ = *real_vfs;
  vfs_.zName = "parley_faulty";
  vfs_.szOsFile = static_cast<int>(sizeof(File)) + real_vfs->szOsFile;
  vfs_.xOpen = x_open;
  vfs_.pNext = nullptr;
  sqlite3_vfs_register(&vfs_, 1);
}

FaultyVfs::~FaultyVfs() {
  fail_writes = false;
  fail_syncs = false;
  sqlite3_vfs_unregister(&vfs_);
  sqlite3_vfs_register(real_vfs, 1);
}

}  // namespace parley
