-- Only widget conversations have a visitor, and the one query this index serves (a visitor's
-- messages since a time, domain/widget_rules.cpp) asks for one visitor: API conversations, most
-- of them under load, no longer write an entry into it.
DROP INDEX conversations_agent_visitor;
CREATE INDEX conversations_agent_visitor ON conversations (agent_id, visitor_id, last_activity_at)
  WHERE visitor_id IS NOT NULL;
