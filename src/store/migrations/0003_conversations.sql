-- Conversations (API and widget), their messages, leads, and message usage for plan accounting.
CREATE TABLE conversations (
  id                     TEXT PRIMARY KEY,
  agent_id               TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id             TEXT NOT NULL,
  session_id             TEXT NOT NULL,          -- as shown: 'svcapi…' for API conversations
  channel                TEXT NOT NULL CHECK (channel IN ('api', 'widget')),
  country                TEXT,
  page                   TEXT,
  visitor_id             TEXT,                   -- widget visitor, for messages-per-visitor
  created_at             BIGINT NOT NULL,
  last_activity_at       BIGINT NOT NULL,        -- time of the latest message
  message_count          INTEGER NOT NULL DEFAULT 0,
  topics                 TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
  sentiment              TEXT,
  handoff_requested_at   BIGINT,
  live_chat_status       TEXT CHECK (live_chat_status IN ('requested', 'active', 'ended')),
  live_chat_requested_at BIGINT,
  live_chat_started_at   BIGINT,
  live_chat_ended_at     BIGINT,
  taken_over_by          TEXT,                   -- team member's first name while taken over
  live_chat_offered      INTEGER NOT NULL DEFAULT 0,  -- the agent offered live chat and awaits an answer
  csat_score             INTEGER CHECK (csat_score BETWEEN 1 AND 5),
  csat_comment           TEXT,
  csat_rated_at          BIGINT,
  UNIQUE (agent_id, session_id)
);
CREATE INDEX conversations_agent_created ON conversations(agent_id, created_at DESC, id DESC);
CREATE INDEX conversations_agent_activity ON conversations(agent_id, last_activity_at);

CREATE TABLE messages (
  id               TEXT PRIMARY KEY,
  conversation_id  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  seq              INTEGER NOT NULL,             -- order within the conversation, from 1
  role             TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content          TEXT NOT NULL,
  author_name      TEXT,                         -- team member's first name for live-chat replies
  sources          TEXT NOT NULL DEFAULT '[]',   -- JSON array of {title, url}
  created_at       BIGINT NOT NULL,
  UNIQUE (conversation_id, seq)
);

CREATE TABLE leads (
  id                TEXT PRIMARY KEY,
  agent_id          TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id        TEXT NOT NULL,
  person_key        TEXT NOT NULL,               -- lower-cased email, else phone digits: one lead per person
  email             TEXT,
  phone             TEXT,
  name              TEXT,
  custom_fields     TEXT NOT NULL DEFAULT '[]',  -- JSON array of {id, value}; labels come from the form now
  form_id           TEXT,
  source            TEXT NOT NULL CHECK (source IN ('form', 'chat')),
  conversation_id   TEXT REFERENCES conversations(id) ON DELETE SET NULL,
  collected_at      BIGINT NOT NULL,
  last_seen_at      BIGINT NOT NULL,
  submission_count  INTEGER NOT NULL DEFAULT 1,
  UNIQUE (agent_id, person_key)
);
CREATE INDEX leads_agent_created ON leads(agent_id, collected_at DESC, id DESC);

-- Replies counted per account per month (plan messages) and per agent per month (monthly cap)
-- and per agent per hour (busy limit). period: 'm:YYYY-MM' or 'h:YYYY-MM-DDTHH'.
CREATE TABLE usage_counters (
  scope_id  TEXT NOT NULL,                       -- account id or agent id
  period    TEXT NOT NULL,
  count     BIGINT NOT NULL,
  PRIMARY KEY (scope_id, period)
);
