-- Contacts, and the indexes that make every page of the conversation, lead and contact lists cost
-- the same: an ordered index (scope, time DESC, id DESC, activity) for keyset pages, and an
-- activity index (scope, activity, time, id) for the older items of a `since` page
-- (store/keyset.h, docs/decisions/data.md).
CREATE TABLE contacts (
  id             TEXT PRIMARY KEY,
  agent_id       TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id     TEXT NOT NULL,
  external_id    TEXT,
  email          TEXT,                            -- stored in lower case
  phone          TEXT,
  name           TEXT,
  attributes     TEXT NOT NULL DEFAULT '{}',      -- JSON object, at most 50 members
  source         TEXT NOT NULL CHECK (source IN ('identity', 'lead', 'import', 'api')),
  first_seen_at  BIGINT NOT NULL,
  last_seen_at   BIGINT NOT NULL,
  created_at     BIGINT NOT NULL,
  updated_at     BIGINT NOT NULL,
  UNIQUE (agent_id, external_id),
  UNIQUE (agent_id, email)
);
CREATE INDEX contacts_agent_created ON contacts(agent_id, created_at DESC, id DESC, updated_at);
CREATE INDEX contacts_agent_updated ON contacts(agent_id, updated_at, created_at, id);
CREATE INDEX contacts_agent_phone ON contacts(agent_id, phone);

-- Contacts per agent, kept with every insert and delete so the plan's allowance is checked
-- without counting rows.
CREATE TABLE contact_counts (
  agent_id  TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  count     BIGINT NOT NULL
);

-- Supersets of the list indexes of 0003 (same leading columns), so writes pay for no extra index.
DROP INDEX conversations_agent_created;
CREATE INDEX conversations_agent_created ON conversations(agent_id, created_at DESC, id DESC, last_activity_at);
DROP INDEX conversations_agent_activity;
CREATE INDEX conversations_agent_activity ON conversations(agent_id, last_activity_at, created_at, id);
DROP INDEX leads_agent_created;
CREATE INDEX leads_agent_created ON leads(agent_id, collected_at DESC, id DESC, last_seen_at);
CREATE INDEX leads_agent_seen ON leads(agent_id, last_seen_at, collected_at, id);
