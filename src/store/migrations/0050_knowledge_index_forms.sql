-- The persisted form of each agent's knowledge index (src/knowledge/index_form.h): written when
-- training leaves the agent with nothing pending, read by any node whose memory budget
-- (--knowledge-memory-mb) evicted the agent's index or that never loaded it, so an index comes
-- back in one read instead of by analysing every source again. One row per agent, its latest
-- form; a form whose version is not the agent's knowledge version is ignored (and replaced).
CREATE TABLE knowledge_index_forms (
  agent_id    TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  version     BIGINT NOT NULL,   -- the agent's knowledge version (knowledge_versions) it reflects
  format      INTEGER NOT NULL,  -- the layout's version (kIndexFormVersion) of its writer
  form        BLOB NOT NULL,
  bytes       BIGINT NOT NULL,   -- the form's size
  created_at  BIGINT NOT NULL
);
