-- A conversation's hand-off, live-chat and contact columns are indexed only where they are set.
-- Most conversations have none of them, every query these indexes serve asks for rows where the
-- column is set (IS NOT NULL, IN (...), = $n), and an entry per conversation in each of the four
-- cost every chat turn's write (and, on PostgreSQL, every update that moves an indexed column)
-- without ever being read.
DROP INDEX conversations_agent_handoff;
CREATE INDEX conversations_agent_handoff ON conversations(agent_id, handoff_requested_at)
  WHERE handoff_requested_at IS NOT NULL;
DROP INDEX conversations_agent_live_chat;
CREATE INDEX conversations_agent_live_chat ON conversations(agent_id, live_chat_requested_at)
  WHERE live_chat_requested_at IS NOT NULL;
DROP INDEX conversations_agent_live_chat_status;
CREATE INDEX conversations_agent_live_chat_status ON conversations(agent_id, live_chat_status)
  WHERE live_chat_status IS NOT NULL;
DROP INDEX conversations_contact;
CREATE INDEX conversations_contact ON conversations(contact_id) WHERE contact_id IS NOT NULL;
