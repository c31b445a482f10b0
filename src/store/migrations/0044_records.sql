-- Export, retention and erasure (docs/decisions/records.md).

-- Background jobs that one node at a time runs when nodes share the database (the retention
-- purge): the node whose `owner` (random per process) holds the row until `lease_until` runs it;
-- another takes it over once the lease has ended.
CREATE TABLE worker_leases (
  name         TEXT PRIMARY KEY,
  owner        TEXT NOT NULL,
  lease_until  BIGINT NOT NULL
);

-- A conversation's events and their deliveries are found by the event's id (the conversation's
-- id, or "cnv_…:<ms>" for its hand-offs and live chats) when the conversation is purged or erased.
CREATE INDEX event_outbox_event ON event_outbox(event_id);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);
