-- Widget visitors: their recently active conversations with an agent, for messages-per-visitor.
CREATE INDEX conversations_agent_visitor ON conversations (agent_id, visitor_id, last_activity_at);
