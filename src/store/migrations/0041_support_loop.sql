-- The support lead's loop: what each agent reply was, what the visitor thought of it, who the
-- visitor is, and the account's own day and retention.

-- How an agent reply came about: 'answered' (from knowledge, at or above the agent's threshold and
-- its margin), 'low_confidence' (answered, but below the threshold's margin), 'fallback' (the
-- agent's fallback message). NULL for visitor messages and for replies a team member wrote.
ALTER TABLE messages ADD COLUMN outcome TEXT;
-- The answer's confidence, 0 to 1, when the engine computed one.
ALTER TABLE messages ADD COLUMN confidence DOUBLE PRECISION;
-- The visitor's thumbs on an agent reply: 'up', 'down' or NULL, and when it was last given.
ALTER TABLE messages ADD COLUMN rating TEXT;
ALTER TABLE messages ADD COLUMN rated_at BIGINT;

-- The contact a conversation is bound to (a signed widget identity), NULL while anonymous.
ALTER TABLE conversations ADD COLUMN contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL;
CREATE INDEX conversations_contact ON conversations(contact_id);

-- The account's time zone (IANA name): its days for figures and roll-ups.
ALTER TABLE accounts ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
-- Conversations older than this many days are deleted; NULL keeps them for ever.
ALTER TABLE accounts ADD COLUMN retention_days INTEGER;
