-- Counters of fixed windows that every node sharing the database counts in (widget limits per
-- address, agent and conversation): one row per counter, its current window replacing the last.
CREATE TABLE shared_windows (
  name          TEXT PRIMARY KEY,
  window_start  BIGINT NOT NULL,
  count         INTEGER NOT NULL
);
CREATE INDEX shared_windows_by_start ON shared_windows (window_start);
