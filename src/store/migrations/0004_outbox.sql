-- Events waiting to be delivered to webhooks: written in the same transaction as the record the
-- event is about (a lead, a hand-off, ...), fanned out to matching subscriptions by the delivery
-- worker. `event_id` is the id the event carries (spec section 4, "List events and samples").
CREATE TABLE event_outbox (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL,
  agent_id       TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  event          TEXT NOT NULL,
  event_id       TEXT NOT NULL,
  created_at     BIGINT NOT NULL,
  dispatched_at  BIGINT          -- when deliveries were created for it; NULL while waiting
);
CREATE INDEX event_outbox_waiting ON event_outbox(dispatched_at, created_at);
