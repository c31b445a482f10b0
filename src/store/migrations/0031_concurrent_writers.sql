-- Sequences that hold with writers running side by side (a second backend), not only with
-- SQLite's single writer. A source's seq was MAX(seq) + 1 of its agent, which two writers could
-- both read; it is now taken from the agent's counter in one UPDATE ... RETURNING (the row lock
-- queues concurrent inserts), and the unique index makes a duplicate impossible either way.
ALTER TABLE agents ADD COLUMN last_source_seq BIGINT NOT NULL DEFAULT 0;
UPDATE agents SET last_source_seq =
  COALESCE((SELECT MAX(seq) FROM sources WHERE sources.agent_id = agents.id), 0);
CREATE UNIQUE INDEX sources_agent_seq ON sources(agent_id, seq);
