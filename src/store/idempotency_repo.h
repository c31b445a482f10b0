// Idempotency keys of the public API (store/migrations/0035_idempotency_keys.sql): which request
// a key of an account was first used for, and the answer to give again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/db.h"

namespace parley {

// An answer as kept for replay.
struct KeptAnswer {
  int status = 0;
  std::string content_type;
  std::string headers;  // JSON object of the replayed headers
  std::string body;
};

struct IdempotencyClaim {
  enum class Outcome {
    kClaimed,   // the caller runs the request and then keeps or releases its answer
    kInUse,     // the first request with this key is still running
    kMismatch,  // the key was used for another request
    kAnswered,  // `answer` is the first request's
  };
  Outcome outcome = Outcome::kClaimed;
  KeptAnswer answer;
};

class IdempotencyRepo {
 public:
  // Claims (account, key) for the request `fingerprint`, held until `locked_until`; a key whose
  // 24 hours ended (`expires_at` past) is free again, and so is a running claim of the same
  // request whose holder let its lock run out (its node died). One write transaction.
  static Result<IdempotencyClaim> claim(Connection& c, std::string_view account_id, std::string_view key,
                                        std::string_view fingerprint, int64_t now_ms, int64_t locked_until,
                                        int64_t expires_at);
  // Keeps the answer of the claimed request.
  static Result<void> keep(Connection& c, std::string_view account_id, std::string_view key,
                           std::string_view fingerprint, const KeptAnswer& answer);
  // Gives the claim up without an answer (the request failed with a 5xx): the key is free again.
  static Result<void> release(Connection& c, std::string_view account_id, std::string_view key,
                              std::string_view fingerprint);
  // Removes keys whose 24 hours ended before `now_ms`; returns how many.
  static Result<int64_t> purge(Connection& c, int64_t now_ms);
};

}  // namespace parley
