-- Per-entity cache invalidation (docs/decisions/cache-invalidation.md): an agent's counters
-- (conversations, messages, leads, sources) are written by one statement per transaction that
-- also moves counts_seq and returns the counts; a cache takes a commit's counts only when their
-- sequence is newer than what it holds, so commits that publish out of order never undo a count.
ALTER TABLE agents ADD COLUMN counts_seq INTEGER NOT NULL DEFAULT 0;
