-- Knowledge sources of agents, and the version of each agent's knowledge that in-memory
-- retrieval indexes compare against to tell they are stale (several nodes share one database).
CREATE TABLE sources (
  id           TEXT PRIMARY KEY,
  agent_id     TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id   TEXT NOT NULL,
  seq          BIGINT NOT NULL,        -- order of creation within the agent (ties in created_at)
  type         TEXT NOT NULL CHECK (type IN ('website', 'file', 'text', 'qa', 'workspace')),
  title        TEXT,
  url          TEXT,
  filename     TEXT,
  question     TEXT,
  question_key TEXT,                   -- case-folded, NFKC-normalised question, for qa
  answer       TEXT,
  content      TEXT,                   -- the text of every type but qa
  characters   BIGINT NOT NULL,        -- Unicode code points
  status       TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'trained', 'failed')),
  error        TEXT,
  lease_until  BIGINT,                 -- while processing: when another worker may take it over
  finished_at  BIGINT,                 -- when training last ended, trained or failed
  trained_at   BIGINT,
  created_at   BIGINT NOT NULL,
  updated_at   BIGINT NOT NULL
);
CREATE INDEX sources_agent_order ON sources(agent_id, created_at, seq);
CREATE INDEX sources_agent_question ON sources(agent_id, question_key);
CREATE INDEX sources_status ON sources(status, created_at);

CREATE TABLE knowledge_versions (
  agent_id  TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  version   BIGINT NOT NULL
);
