-- Knowledge gaps: the visitor questions an agent could not answer well (its reply was the fallback
-- or below the confidence margin, or the visitor gave it a thumbs-down or the conversation a CSAT
-- of 1 or 2), grouped by meaning (docs/decisions/gaps.md).

-- A group of questions that mean the same. `terms` is the analysed key new questions are compared
-- with (the first question's content lemmas). What a group shows (a representative wording, the
-- count, channels, first and last asked) is read from its gaps, so a gap deleted with its
-- conversation (retention, erasure) leaves no stale figure; a group with no gap left is not listed.
CREATE TABLE gap_groups (
  id               TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  account_id       TEXT NOT NULL,
  terms            TEXT NOT NULL,
  created_at       BIGINT NOT NULL,
  last_asked_at    BIGINT NOT NULL,
  resolved_at      BIGINT,                        -- "Answer this" saved; NULL while open
  answer_source_id TEXT                           -- the qa source that answered it
);
-- Keyset pages of an agent's groups (store/keyset.h), newest first.
CREATE INDEX gap_groups_agent_order ON gap_groups(agent_id, created_at, id);
CREATE INDEX gap_groups_agent_since ON gap_groups(agent_id, last_asked_at, created_at, id);

-- One gap: a visitor's question (a user message) and why it is one. A question is a gap once,
-- whatever the number of reasons; the first reason found is kept.
CREATE TABLE gaps (
  message_id       TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  group_id         TEXT NOT NULL REFERENCES gap_groups(id) ON DELETE CASCADE,
  agent_id         TEXT NOT NULL,
  conversation_id  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  reply_id         TEXT,                          -- the agent reply that made it a gap
  reason           TEXT NOT NULL CHECK (reason IN ('fallback', 'low_confidence', 'rated_down', 'low_csat')),
  channel          TEXT NOT NULL,
  asked_at         BIGINT NOT NULL
);
CREATE INDEX gaps_group ON gaps(group_id, asked_at);
CREATE INDEX gaps_conversation ON gaps(conversation_id);

-- The console inbox's "unanswered" and "rated low" filters look for replies by outcome and rating
-- within each conversation.
CREATE INDEX messages_conversation_outcome ON messages(conversation_id, outcome);
