-- Widget visitors: their conversations with an agent are counted for messages-per-visitor.
CREATE INDEX conversations_agent_visitor ON conversations (agent_id, visitor_id);
