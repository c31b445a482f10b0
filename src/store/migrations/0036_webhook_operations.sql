-- Webhook operations: a webhook whose every attempt failed for days is disabled until someone
-- enables it again; a delivery being sent now is told apart from one waiting for its next
-- attempt; a retry asked for by hand is one attempt; the history lists a page at a time.

-- The start of the current run of failed attempts (the first failure since the last success),
-- and when and why the webhook was disabled (NULL while it is not).
ALTER TABLE webhooks ADD COLUMN failing_since BIGINT;
ALTER TABLE webhooks ADD COLUMN disabled_at BIGINT;
ALTER TABLE webhooks ADD COLUMN disabled_reason TEXT;

-- When the attempt under way was claimed (NULL when none is): a claim whose lease
-- (next_attempt_at) has not run out is an attempt in flight.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_at BIGINT;
-- 1 when the next attempt was asked for by hand on a finished delivery: that attempt alone, no
-- retries after it.
ALTER TABLE webhook_deliveries ADD COLUMN manual INTEGER NOT NULL DEFAULT 0;

-- A webhook's deliveries newest first, a page at a time (keyset on created_at, id).
CREATE INDEX webhook_deliveries_page ON webhook_deliveries(webhook_id, created_at DESC, id DESC);
DROP INDEX webhook_deliveries_webhook;
