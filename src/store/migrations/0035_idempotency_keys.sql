-- Idempotency keys of the public API (Idempotency-Key header): per account, the request a key was
-- first used for (its fingerprint) and, once answered, the answer to give again for 24 hours.
-- While the first request runs, the node holding it keeps `locked_until` ahead.
CREATE TABLE idempotency_keys (
  account_id    TEXT NOT NULL,
  key           TEXT NOT NULL,
  fingerprint   TEXT NOT NULL,
  state         TEXT NOT NULL,
  locked_until  INTEGER,
  status        INTEGER,
  content_type  TEXT,
  headers       TEXT,
  body          TEXT,
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
