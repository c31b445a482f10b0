#include "store/idempotency_repo.h"

namespace parley {

Result<IdempotencyClaim> IdempotencyRepo::claim(Connection& c, std::string_view account_id, std::string_view key,
                                                std::string_view fingerprint, int64_t now_ms, int64_t locked_until,
                                                int64_t expires_at) {
  PARLEY_ASSIGN_OR_RETURN(int64_t inserted,
                          c.execute("INSERT INTO idempotency_keys (account_id, key, fingerprint, state, locked_until,"
                                    " created_at, expires_at) VALUES ($1, $2, $3, 'running', $4, $5, $6)"
                                    " ON CONFLICT (account_id, key) DO NOTHING",
                                    {account_id, key, fingerprint, locked_until, now_ms, expires_at}));
  if (inserted == 1) return IdempotencyClaim{};
  PARLEY_ASSIGN_OR_RETURN(
      int64_t taken,
      c.execute("UPDATE idempotency_keys SET fingerprint = $3, state = 'running', locked_until = $4, status = NULL,"
                " content_type = NULL, headers = NULL, body = NULL, created_at = $5, expires_at = $6"
                " WHERE account_id = $1 AND key = $2 AND (expires_at <= $5"
                " OR (state = 'running' AND locked_until <= $5 AND fingerprint = $3))",
                {account_id, key, fingerprint, locked_until, now_ms, expires_at}));
  if (taken == 1) return IdempotencyClaim{};
  IdempotencyClaim out;
  out.outcome = IdempotencyClaim::Outcome::kInUse;  // also when the row went away meanwhile
  PARLEY_TRY(c.query("SELECT fingerprint, state, status, content_type, headers, body FROM idempotency_keys"
                     " WHERE account_id = $1 AND key = $2",
                     {account_id, key}, [&](const Row& r) {
                       if (r.text_view(0) != fingerprint) {
                         out.outcome = IdempotencyClaim::Outcome::kMismatch;
                       } else if (r.text_view(1) == "done") {
                         out.outcome = IdempotencyClaim::Outcome::kAnswered;
                         out.answer.status = static_cast<int>(r.int64(2));
                         out.answer.content_type = r.text(3);
                         out.answer.headers = r.text(4);
                         out.answer.body = r.text(5);
                       }
                     }));
  return out;
}

Result<void> IdempotencyRepo::keep(Connection& c, std::string_view account_id, std::string_view key,
                                   std::string_view fingerprint, const KeptAnswer& answer) {
  PARLEY_TRY(c.execute("UPDATE idempotency_keys SET state = 'done', locked_until = NULL, status = $4,"
                       " content_type = $5, headers = $6, body = $7"
                       " WHERE account_id = $1 AND key = $2 AND fingerprint = $3 AND state = 'running'",
                       {account_id, key, fingerprint, int64_t{answer.status}, answer.content_type, answer.headers,
                        answer.body}));
  return {};
}

Result<void> IdempotencyRepo::release(Connection& c, std::string_view account_id, std::string_view key,
                                      std::string_view fingerprint) {
  PARLEY_TRY(c.execute("DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND fingerprint = $3"
                       " AND state = 'running'",
                       {account_id, key, fingerprint}));
  return {};
}

Result<int64_t> IdempotencyRepo::purge(Connection& c, int64_t now_ms) {
  return c.execute("DELETE FROM idempotency_keys WHERE expires_at <= $1", {now_ms});
}

}  // namespace parley
