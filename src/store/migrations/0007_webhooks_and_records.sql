-- Records behind the webhook events (form submissions, bookings, return requests, hand-off
-- tickets), webhook subscriptions, and their deliveries with every attempt.
CREATE TABLE form_submissions (
  id               TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id       TEXT NOT NULL,
  form_id          TEXT NOT NULL,
  form_name        TEXT,
  fields           TEXT NOT NULL DEFAULT '[]',   -- JSON array of {id, label, value}
  conversation_id  TEXT REFERENCES conversations(id) ON DELETE SET NULL,
  created_at       BIGINT NOT NULL
);
CREATE INDEX form_submissions_agent ON form_submissions(agent_id, created_at DESC, id DESC);

CREATE TABLE bookings (
  id               TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id       TEXT NOT NULL,
  provider         TEXT NOT NULL,
  event_title      TEXT,
  start_at         BIGINT NOT NULL,
  length_minutes   INTEGER NOT NULL,
  time_zone        TEXT NOT NULL,
  name             TEXT,
  email            TEXT,
  provider_status  TEXT NOT NULL CHECK (provider_status IN ('pending', 'accepted')),
  conversation_id  TEXT REFERENCES conversations(id) ON DELETE SET NULL,
  created_at       BIGINT NOT NULL
);
CREATE INDEX bookings_agent ON bookings(agent_id, created_at DESC, id DESC);

CREATE TABLE return_requests (
  id               TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id       TEXT NOT NULL,
  order_id         TEXT,
  email            TEXT,
  name             TEXT,
  reason           TEXT,
  status           TEXT NOT NULL CHECK (status IN ('requested', 'handled')),
  handled_at       BIGINT,
  conversation_id  TEXT REFERENCES conversations(id) ON DELETE SET NULL,
  created_at       BIGINT NOT NULL
);
CREATE INDEX return_requests_agent ON return_requests(agent_id, created_at DESC, id DESC);

-- The helpdesk ticket a hand-off by email opened, when it opened one.
ALTER TABLE conversations ADD COLUMN handoff_ticket TEXT;
CREATE INDEX conversations_agent_handoff ON conversations(agent_id, handoff_requested_at);
CREATE INDEX conversations_agent_live_chat ON conversations(agent_id, live_chat_requested_at);

CREATE TABLE webhooks (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL,
  agent_id    TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  url         TEXT NOT NULL,
  events      TEXT NOT NULL,                 -- comma-separated event names
  source      TEXT NOT NULL CHECK (source IN ('tool_a', 'tool_b', 'api')),
  origin      TEXT NOT NULL CHECK (origin IN ('api', 'dashboard')),
  key_id      TEXT,                          -- the subscribing API key (origin 'api')
  secret      TEXT NOT NULL,                 -- whsec_…; needed in clear to sign
  paused      INTEGER NOT NULL DEFAULT 0,
  created_at  BIGINT NOT NULL
);
CREATE INDEX webhooks_agent ON webhooks(agent_id, created_at);
CREATE INDEX webhooks_key ON webhooks(key_id);

-- One row per (event, webhook); the body is frozen when the event is fanned out so that every
-- retry sends the same bytes.
CREATE TABLE webhook_deliveries (
  id               TEXT PRIMARY KEY,
  webhook_id       TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  outbox_id        TEXT NOT NULL,
  event            TEXT NOT NULL,
  event_id         TEXT NOT NULL,
  payload          TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  BIGINT,                   -- due time while pending (a claim pushes it out)
  event_created_at BIGINT NOT NULL,
  created_at       BIGINT NOT NULL,
  completed_at     BIGINT,
  UNIQUE (webhook_id, outbox_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, created_at);

CREATE TABLE webhook_attempts (
  id             TEXT PRIMARY KEY,
  delivery_id    TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  webhook_id     TEXT NOT NULL,
  attempt        INTEGER NOT NULL,
  started_at     BIGINT NOT NULL,
  duration_ms    BIGINT NOT NULL,
  response_code  INTEGER,
  error          TEXT,
  succeeded      INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, attempt);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id);
