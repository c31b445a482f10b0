-- Figures: per agent and per day (the account's time zone, as a day number since 1970-01-01),
-- kept on write in the transaction of the write they count (docs/decisions/figures.md).

-- What each conversation adds to its day. A write that changes a conversation reads what it adds
-- now, takes out what it added before and puts the new figures in (store/figure_repo.h). The day
-- is fixed when the conversation is first counted. Deleting a conversation keeps its figures.
CREATE TABLE conversation_figures (
  conversation_id  TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  agent_id         TEXT NOT NULL,
  day              INTEGER NOT NULL,
  channel          TEXT NOT NULL,
  topics           TEXT NOT NULL DEFAULT '[]',   -- JSON array of strings, as counted
  last_activity_at BIGINT NOT NULL,
  idle_ended       INTEGER NOT NULL DEFAULT 0,   -- ended by the sweeper at this last activity
  visitor_messages INTEGER NOT NULL DEFAULT 0,
  agent_replies    INTEGER NOT NULL DEFAULT 0,
  answered         INTEGER NOT NULL DEFAULT 0,
  low_confidence   INTEGER NOT NULL DEFAULT 0,
  fallbacks        INTEGER NOT NULL DEFAULT 0,
  handoff          INTEGER NOT NULL DEFAULT 0,
  live_chat        INTEGER NOT NULL DEFAULT 0,
  ended            INTEGER NOT NULL DEFAULT 0,
  resolved         INTEGER NOT NULL DEFAULT 0,
  csat             INTEGER,
  thumbs_up        INTEGER NOT NULL DEFAULT 0,
  thumbs_down      INTEGER NOT NULL DEFAULT 0
);
-- The sweeper's work: conversations not yet ended, by last activity.
CREATE INDEX conversation_figures_open ON conversation_figures(last_activity_at) WHERE ended = 0;

-- The roll-up: one row per agent and day.
CREATE TABLE figure_days (
  agent_id         TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  day              INTEGER NOT NULL,
  conversations    INTEGER NOT NULL DEFAULT 0,
  visitor_messages INTEGER NOT NULL DEFAULT 0,
  agent_replies    INTEGER NOT NULL DEFAULT 0,
  answered         INTEGER NOT NULL DEFAULT 0,
  low_confidence   INTEGER NOT NULL DEFAULT 0,
  fallbacks        INTEGER NOT NULL DEFAULT 0,
  handoffs         INTEGER NOT NULL DEFAULT 0,
  live_chats       INTEGER NOT NULL DEFAULT 0,
  ended            INTEGER NOT NULL DEFAULT 0,
  resolved         INTEGER NOT NULL DEFAULT 0,
  csat_sum         INTEGER NOT NULL DEFAULT 0,
  csat_count       INTEGER NOT NULL DEFAULT 0,
  csat_1           INTEGER NOT NULL DEFAULT 0,
  csat_2           INTEGER NOT NULL DEFAULT 0,
  csat_3           INTEGER NOT NULL DEFAULT 0,
  csat_4           INTEGER NOT NULL DEFAULT 0,
  csat_5           INTEGER NOT NULL DEFAULT 0,
  thumbs_up        INTEGER NOT NULL DEFAULT 0,
  thumbs_down      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, day)
);

-- Conversations per channel and per topic, per agent and day.
CREATE TABLE figure_day_names (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  day      INTEGER NOT NULL,
  kind     TEXT NOT NULL CHECK (kind IN ('channel', 'topic')),
  name     TEXT NOT NULL,
  count    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, day, kind, name)
);
