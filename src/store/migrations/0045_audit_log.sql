-- The audit log: every change made through the console, the public API's configuration writes and
-- the admin CLI, one chain of entries per account. Each entry's hash covers its fields and the
-- previous entry's hash (store/audit_repo.h), so an edited, deleted or reordered entry breaks the
-- chain that `parley admin audit verify` walks.
CREATE TABLE audit_entries (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  created_at  INTEGER NOT NULL,
  actor_type  TEXT NOT NULL,
  actor_id    TEXT,
  actor_name  TEXT NOT NULL,
  address     TEXT,
  action      TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id   TEXT,
  changes     TEXT NOT NULL,
  details     TEXT,
  prev_hash   TEXT NOT NULL,
  hash        TEXT NOT NULL,
  UNIQUE (account_id, seq)
);
CREATE INDEX audit_entries_by_time ON audit_entries (account_id, created_at);

-- One row per account's chain: its last entry (appends lock this row, so writers on every node
-- queue into one chain) and the checkpoint of the entries purged after a year (the last purged
-- entry's seq and hash: the first kept entry must link to it).
CREATE TABLE audit_chains (
  id          TEXT PRIMARY KEY,
  last_seq    INTEGER NOT NULL,
  last_hash   TEXT NOT NULL,
  purged_seq  INTEGER NOT NULL,
  purged_hash TEXT NOT NULL
);
