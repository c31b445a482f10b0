-- Accounts, API keys, agents and the persisted rate-limit windows.
CREATE TABLE accounts (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  plan        TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'enterprise')),
  limits      TEXT,             -- JSON object overriding the plan's numeric limits, or NULL
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  prefix       TEXT NOT NULL,     -- first 12 characters, for display
  fingerprint  TEXT NOT NULL UNIQUE,  -- hex SHA-256 of the whole key
  all_scopes   INTEGER NOT NULL,
  scopes       TEXT NOT NULL,     -- comma-separated, empty when all_scopes
  created_by   TEXT,              -- team member id, or NULL when made by an operator
  created_at   BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at   BIGINT
);
CREATE INDEX api_keys_account ON api_keys(account_id, created_at);

CREATE TABLE agents (
  id                  TEXT PRIMARY KEY,
  account_id          TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name                TEXT NOT NULL,
  private             INTEGER NOT NULL DEFAULT 0,
  settings            TEXT NOT NULL DEFAULT '{}',
  status              TEXT NOT NULL DEFAULT 'untrained',
  trained_at          BIGINT,
  characters          BIGINT NOT NULL DEFAULT 0,
  conversations_count BIGINT NOT NULL DEFAULT 0,
  messages_count      BIGINT NOT NULL DEFAULT 0,
  leads_count         BIGINT NOT NULL DEFAULT 0,
  sources_count       BIGINT NOT NULL DEFAULT 0,
  created_at          BIGINT NOT NULL,
  updated_at          BIGINT NOT NULL
);
CREATE INDEX agents_account ON agents(account_id, created_at);

CREATE TABLE rate_windows (
  key_id        TEXT PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
  window_start  BIGINT NOT NULL,
  count         INTEGER NOT NULL
);
