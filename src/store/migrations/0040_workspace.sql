-- Workspace pages as knowledge: the Notion integration connected to an agent (its token sealed
-- with the server's secret key, core/secret_box.h; never stored in clear) and each page imported
-- from it, which is also the queue of the import worker (claimed with a lease, like training).
CREATE TABLE workspace_connections (
  agent_id        TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  account_id      TEXT NOT NULL,
  token_sealed    TEXT NOT NULL,        -- "v1.<key id>.<nonce|ciphertext|tag>", bound to agent_id
  key_id          TEXT NOT NULL,        -- the server key that sealed it
  bot_id          TEXT NOT NULL,        -- Notion's id of the integration's bot user
  workspace_name  TEXT,
  connected_by    TEXT,                 -- the member who connected it
  connected_at    BIGINT NOT NULL
);
CREATE INDEX workspace_connections_key ON workspace_connections(key_id);

CREATE TABLE workspace_pages (
  agent_id          TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  page_id           TEXT NOT NULL,      -- Notion's page id, lower case with dashes
  account_id        TEXT NOT NULL,
  -- The source the page became; deleting the source ends the import.
  source_id         TEXT REFERENCES sources(id) ON DELETE CASCADE,
  title             TEXT,
  url               TEXT,
  last_edited_time  TEXT,               -- Notion's, of the text the source holds
  -- When that text was read: Notion's times are whole minutes, so a page edited in the minute
  -- it was read is read again to compare.
  content_read_at   BIGINT,
  state             TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
  outcome           TEXT,               -- created, updated, unchanged, removed, failed
  error_code        TEXT,
  error_message     TEXT,
  lease_until       BIGINT,             -- while running: when another worker may take it over
  requested_at      BIGINT NOT NULL,
  finished_at       BIGINT,
  PRIMARY KEY (agent_id, page_id)
);
CREATE INDEX workspace_pages_state ON workspace_pages(state, requested_at);
CREATE INDEX workspace_pages_source ON workspace_pages(source_id);
