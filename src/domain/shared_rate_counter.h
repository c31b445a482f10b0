// Counts each key's requests per minute in the database nodes share
// (store/shared_window_repo.h), so a key's limit holds across every node.
//
// Near the limit, each request is counted by its own statement, exactly. Far from it (more than
// kNearLimit requests left in the window), a key that is busy on this node takes an allowance: a
// block of the window's requests counted in the database at once and spent from memory, so most
// requests do not touch the database. An allowance is sized to what the key used on this node
// in the last allowance's life (at most doubling, at most 1/16th of what the window has left)
// and lives kAllowanceLifeMs; what an expired one left is given back before the key's next
// count, or by return_unused() for a key that went quiet. The window's count never passes the
// limit and refused requests are not counted, so what is given back can still be spent: no more
// than the limit gets through, and while allowances are out a request on another node may be
// refused up to an allowance's life (plus a second for a quiet key) before it could have been.
// Thread-safe: one lock per key, held across its statement, so concurrent requests of a key on
// this node share one allowance rather than each asking the database.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

#include "core/result.h"
#include "core/string_map.h"
#include "store/db.h"

namespace parley {

class SharedRateCounter {
 public:
  static constexpr int64_t kNearLimit = 256;
  static constexpr int64_t kAllowanceLifeMs = 100;
  static constexpr int64_t kMaxAllowance = 8192;

  SharedRateCounter(Database& db, int64_t per_minute) : db_(db), per_minute_(per_minute) {}

  // Counts one request of `key_id` in the minute starting at `window_ms`; returns the window's
  // count including it, past the limit when it is refused.
  Result<int64_t> hit(std::string_view key_id, int64_t window_ms, int64_t now_ms);
  // hit() when this node's allowance can count the request without the database and without
  // waiting for another thread's statement; none otherwise (the caller moves to a thread that
  // may wait and calls hit()).
  std::optional<int64_t> hit_from_memory(std::string_view key_id, int64_t window_ms,
                                         int64_t now_ms);
  // Gives back what allowances left: every allowance, or (expired_only) those past their life.
  void return_unused(int64_t now_ms, bool expired_only);

 private:
  struct Key {
    std::mutex mu;
    int64_t window_ms = -1;
    int64_t counted = 0;     // the window's count as the database last told it, `left` included
    int64_t allowance = 0;   // the size of the current allowance
    int64_t left = 0;        // what is left of it
    int64_t expires_ms = 0;
    int64_t asked_ms = 0;    // when the database was last asked
  };
  struct Shard {
    std::mutex mu;
    StringMap<std::unique_ptr<Key>> keys;
  };
  Key& key(std::string_view key_id);
  int64_t next_allowance(const Key& k, int64_t window_ms, int64_t now_ms) const;

  Database& db_;
  const int64_t per_minute_;
  std::array<Shard, 16> shards_;
};

}  // namespace parley
