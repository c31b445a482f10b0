-- The inbox's "unanswered" and "rated low" filters look, within each conversation, for a fallback
-- reply and for a reply rated down (store/inbox_queries.cpp); nothing else reads messages by
-- outcome. Only those replies are indexed now: every other message (every question, every
-- answered reply) no longer writes an entry on its insert.
-- IF NOT EXISTS: on a large PostgreSQL database the two indexes may be built beforehand without
-- holding writes (CREATE INDEX CONCURRENTLY, docs/operations.md); this then only drops the old one.
CREATE INDEX IF NOT EXISTS messages_conversation_fallback ON messages(conversation_id)
  WHERE outcome = 'fallback';
CREATE INDEX IF NOT EXISTS messages_conversation_rated_down ON messages(conversation_id)
  WHERE outcome IS NOT NULL AND rating = 'down';
DROP INDEX IF EXISTS messages_conversation_outcome;
