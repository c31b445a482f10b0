// Idempotency-Key on the public API's writes (POST, PATCH, DELETE), after the IETF
// Idempotency-Key header draft and Stripe's behaviour (docs/decisions/idempotency.md).
//
// A write carrying the header claims the key for its account before it runs. Its answer (status,
// body, and the headers a client needs again) is kept for 24 hours from the first request and
// given again, with `Idempotent-Replayed: true`, to a repeat with the same key, method, path and
// body; the request does not run again. The same key on another request: 422
// idempotency_key_reused. A repeat while the first still runs: 409 idempotency_key_in_use.
// Answers that say "try again" are not kept, so a retry runs: any 5xx, and 429. A streamed reply
// is kept as the text it streamed and replayed whole.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "core/clock.h"
#include "http/message.h"
#include "store/db.h"

namespace parley {

struct IdempotencyTicket;

struct IdempotencyStart {
  // What to answer at once (a replay, 409, 422, or 400 for a malformed key); then the request
  // does not run.
  std::optional<Response> answer;
  // When set, the request runs and its response goes through idempotency_finish().
  std::shared_ptr<const IdempotencyTicket> ticket;
};

// Before a write runs: neither field set when the request carries no key or is not a write.
IdempotencyStart idempotency_start(Database& db, const Clock& clock, const Request& req,
                                   std::string_view account_id);

// The response of a claimed request, unchanged; its answer is kept once known (at once, after its
// pool step, or when its deferred answer has been sent in full), or the key is released.
Response idempotency_finish(std::shared_ptr<const IdempotencyTicket> ticket, Response response);

}  // namespace parley
